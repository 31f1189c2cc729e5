import { createChallenge } from "@/lib/auth/sign-in/wallet";
import { json, withApi } from "@/lib/http/handler";
import { challengeOp } from "@/lib/operations/auth";

export const dynamic = "force-dynamic";

export const POST = withApi(challengeOp, async ({ body }) => json(await createChallenge(body.address, body.chainId), 201));
