import { sessionCookie } from "@/lib/auth/sessions";
import { verifyChallenge } from "@/lib/auth/sign-in/wallet";
import { json, withApi } from "@/lib/http/handler";
import { verifyOp } from "@/lib/operations/auth";

export const dynamic = "force-dynamic";

export const POST = withApi(verifyOp, async ({ body }) => {
  const session = await verifyChallenge(body);
  return json({ token: session.token, expiresAt: session.expiresAt.toISOString(), user: session.user }, 200, {
    "set-cookie": sessionCookie(session),
  });
});
