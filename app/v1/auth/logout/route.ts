import { clearedSessionCookie, revokeSession } from "@/lib/auth/sessions";
import { json, withApi } from "@/lib/http/handler";
import { logoutOp } from "@/lib/operations/auth";

export const dynamic = "force-dynamic";

export const POST = withApi(logoutOp, async ({ principal }) => {
  if (principal.kind === "session") await revokeSession(principal.sessionId);
  return json({ ok: true }, 200, { "set-cookie": clearedSessionCookie() });
});
