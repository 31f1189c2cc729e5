import { randomUUID } from "node:crypto";
import { safeEqual } from "@/lib/auth/secrets";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { errorResponse, json } from "@/lib/http/handler";
import { log } from "@/lib/log";

/**
 * A cron route: one bounded sweep per call, behind `Authorization: Bearer $CRON_SECRET`
 * compared in constant time. Without a configured secret every call is refused — the check
 * is never skipped. GET and POST both run it (schedulers such as Vercel Cron send GET).
 */
export function cronRoute(name: string, sweep: () => Promise<unknown>): (req: Request) => Promise<Response> {
  return async (req) => {
    const requestId = randomUUID();
    const secret = env().CRON_SECRET;
    const header = req.headers.get("authorization") ?? "";
    const presented = header.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : "";
    if (!secret || !safeEqual(presented, secret))
      return errorResponse(new AppError("unauthorized", "Missing or invalid cron secret"), requestId);
    const started = Date.now();
    try {
      const result = await sweep();
      return json({ ok: true, job: name, durationMs: Date.now() - started, result }, 200, { "x-request-id": requestId });
    } catch (err) {
      log.error("cron sweep failed", { job: name, requestId, err });
      return errorResponse(err, requestId);
    }
  };
}
