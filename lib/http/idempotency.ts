import { createHash } from "node:crypto";
import { type Principal, principalKey } from "@/lib/auth/principal";
import { nowMs } from "@/lib/clock";
import { db, inTransaction } from "@/lib/db";
import { AppError, invalidField } from "@/lib/errors";
import type { IdempotencyRecord } from "@/lib/generated/prisma/client";
import { IDEMPOTENCY_TTL_MS } from "@/lib/idempotency/store";

/**
 * `Idempotency-Key` for writes: the first successful response is stored and replayed, byte for
 * byte, to a retry with the same key and body; the same key with another body is a 409.
 *
 * The whole request runs in ONE transaction with its key: the key row, the objects the request
 * creates and the stored response commit together, or not at all. So a server killed mid-request
 * leaves nothing behind (no key stuck "in progress", no object the client cannot learn about): the
 * retry simply runs. A concurrent request with the same key waits on the key's unique index and
 * then replays the committed answer. A refused request (4xx/5xx) rolls back, releasing its key.
 * Keys live 24 hours.
 */
const KEY = /^[\x20-\x7e]{1,255}$/;

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

/** Thrown inside the transaction to roll a refused request back while keeping its answer. */
class Refused extends Error {
  constructor(readonly response: Response) {
    super("refused");
  }
}

function replay(existing: IdempotencyRecord, requestHash: string): Response {
  if (existing.requestHash !== requestHash) throw new AppError("conflict", "This Idempotency-Key was used with a different request body");
  if (existing.statusCode === null || existing.response === null) {
    // Written by a version that committed keys before responses; such a row can only be a crash's leftover.
    throw new AppError("conflict", "A request with this Idempotency-Key is still in progress");
  }
  return new Response(existing.response, {
    status: existing.statusCode,
    headers: { "content-type": "application/json", "idempotent-replayed": "true" },
  });
}

export async function withIdempotency(
  req: Request,
  principal: Principal | null,
  body: unknown,
  run: () => Promise<Response>,
): Promise<Response> {
  const key = req.headers.get("idempotency-key");
  if (key === null || !principal) return run();
  if (!KEY.test(key)) throw invalidField("Idempotency-Key", "must be 1–255 printable ASCII characters");
  const id = sha256([principal.accountId, principalKey(principal), req.method, new URL(req.url).pathname, key].join("\n"));
  const requestHash = sha256(JSON.stringify(body ?? null));
  const expiredBefore = new Date(nowMs() - IDEMPOTENCY_TTL_MS);
  await db().idempotencyRecord.deleteMany({ where: { id, createdAt: { lt: expiredBefore } } });
  const existing = await db().idempotencyRecord.findUnique({ where: { id } });
  if (existing) return replay(existing, requestHash);
  try {
    return await inTransaction(async () => {
      await db().idempotencyRecord.create({ data: { id, accountId: principal.accountId, requestHash } });
      const res = await run();
      if (res.status >= 400) throw new Refused(res);
      const text = await res.clone().text();
      await db().idempotencyRecord.update({
        where: { id },
        data: { statusCode: res.status, response: text, completedAt: new Date(nowMs()) },
      });
      return res;
    });
  } catch (err) {
    if (err instanceof Refused) return err.response;
    if ((err as { code?: string }).code === "P2002") {
      // Lost the race for this key to a request that has committed since: answer as it did.
      const winner = await db().idempotencyRecord.findUnique({ where: { id } });
      if (winner) return replay(winner, requestHash);
    }
    throw err;
  }
}
