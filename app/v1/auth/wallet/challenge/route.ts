import { createChallenge } from "@/lib/auth/sign-in/wallet";
import { challengeOp } from "@/lib/contracts/auth";
import { json, withApi } from "@/lib/http/handler";

export const dynamic = "force-dynamic";

export const POST = withApi(challengeOp, async ({ body }) => json(await createChallenge(body.address, body.chainId), 201));
