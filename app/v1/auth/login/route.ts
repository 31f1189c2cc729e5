import { sessionCookie } from "@/lib/auth/sessions";
import { login } from "@/lib/auth/sign-in/email";
import { json, withApi } from "@/lib/http/handler";
import { loginOp } from "@/lib/operations/auth";

export const dynamic = "force-dynamic";

export const POST = withApi(loginOp, async ({ body }) => {
  const session = await login(body.email, body.password);
  return json({ token: session.token, expiresAt: session.expiresAt.toISOString(), user: session.user }, 200, {
    "set-cookie": sessionCookie(session),
  });
});
