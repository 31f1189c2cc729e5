import { json, withApi } from "@/lib/api/handler";
import { login } from "@/lib/auth/email-signin";
import { loginOp } from "@/lib/auth/operations";
import { sessionCookie } from "@/lib/auth/sessions";

export const dynamic = "force-dynamic";

export const POST = withApi(loginOp, async ({ body }) => {
  const session = await login(body.email, body.password);
  return json({ token: session.token, expiresAt: session.expiresAt.toISOString(), user: session.user }, 200, {
    "set-cookie": sessionCookie(session.token, session.expiresAt),
  });
});
