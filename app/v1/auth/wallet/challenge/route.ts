import { json, withApi } from "@/lib/api/handler";
import { challengeOp } from "@/lib/auth/operations";
import { createChallenge } from "@/lib/auth/wallet-signin";

export const dynamic = "force-dynamic";

export const POST = withApi(challengeOp, async ({ body }) => json(await createChallenge(body.address, body.chainId), 201));
