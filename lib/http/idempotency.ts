import { createHash } from "node:crypto";
import { type Principal, principalKey } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { AppError, invalidField } from "@/lib/errors";
import { IDEMPOTENCY_TTL_MS } from "@/lib/idempotency/store";

/**
 * `Idempotency-Key` for writes: the first successful response is stored and replayed, byte for
 * byte, to a retry with the same key and body; the same key with another body is a 409, and so
 * is a retry while the first is still in flight. A refused request (4xx/5xx) releases the key,
 * so the corrected or retried request can use it. Keys live 24 hours.
 */
const KEY = /^[\x20-\x7e]{1,255}$/;

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

export async function withIdempotency(req: Request, principal: Principal | null, body: unknown, run: () => Promise<Response>): Promise<Response> {
  const key = req.headers.get("idempotency-key");
  if (key === null || !principal) return run();
  if (!KEY.test(key)) throw invalidField("Idempotency-Key", "must be 1–255 printable ASCII characters");
  const id = sha256([principal.accountId, principalKey(principal), req.method, new URL(req.url).pathname, key].join("\n"));
  const requestHash = sha256(JSON.stringify(body ?? null));
  const existing = await db().idempotencyRecord.findUnique({ where: { id } });
  if (existing && existing.createdAt.getTime() < Date.now() - IDEMPOTENCY_TTL_MS) {
    await db().idempotencyRecord.deleteMany({ where: { id, createdAt: existing.createdAt } });
  } else if (existing) {
    if (existing.requestHash !== requestHash) throw new AppError("conflict", "This Idempotency-Key was used with a different request body");
    if (existing.statusCode === null || existing.response === null) throw new AppError("conflict", "A request with this Idempotency-Key is still in progress");
    return new Response(existing.response, { status: existing.statusCode, headers: { "content-type": "application/json", "idempotent-replayed": "true" } });
  }
  try {
    await db().idempotencyRecord.create({ data: { id, accountId: principal.accountId, requestHash } });
  } catch (err) {
    if ((err as { code?: string }).code === "P2002") throw new AppError("conflict", "A request with this Idempotency-Key is still in progress");
    throw err;
  }
  const release = () =>
    db()
      .idempotencyRecord.delete({ where: { id } })
      .catch(() => {});
  let res: Response;
  try {
    res = await run();
  } catch (err) {
    await release();
    throw err;
  }
  if (res.status >= 400) {
    await release();
    return res;
  }
  const text = await res.clone().text();
  await db().idempotencyRecord.update({ where: { id }, data: { statusCode: res.status, response: text, completedAt: new Date() } });
  return res;
}
