import { clearedSessionCookie, revokeSession } from "@/lib/auth/sessions";
import { logoutOp } from "@/lib/contracts/auth";
import { json, withApi } from "@/lib/http/handler";

export const dynamic = "force-dynamic";

export const POST = withApi(logoutOp, async ({ principal }) => {
  if (principal.kind === "session") await revokeSession(principal.sessionId);
  return json({ ok: true }, 200, { "set-cookie": clearedSessionCookie() });
});
