import { json, withApi } from "@/lib/api/handler";
import { logoutOp } from "@/lib/auth/operations";
import { clearedSessionCookie, revokeSession } from "@/lib/auth/sessions";

export const dynamic = "force-dynamic";

export const POST = withApi(logoutOp, async ({ principal }) => {
  if (principal.kind === "session") await revokeSession(principal.sessionId);
  return json({ ok: true }, 200, { "set-cookie": clearedSessionCookie() });
});
