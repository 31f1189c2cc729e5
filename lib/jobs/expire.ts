import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { purgeExpiredIdempotencyKeys } from "@/lib/idempotency/store";
import { expireAndReconcileSecurePayments } from "@/lib/secure-payments/settle";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Housekeeping: sign-in challenges and sessions are useless once expired; keep a day of
 * them for investigation, then delete. Pending secure-payment links past their expiry expire.
 */
export async function expireSweep(): Promise<{
  challenges: number;
  sessions: number;
  securePayments: { expired: number; settled: number };
  idempotencyKeys: number;
}> {
  const cutoff = new Date(nowMs() - DAY_MS);
  const [challenges, sessions] = await Promise.all([
    db().walletChallenge.deleteMany({ where: { expiresAt: { lt: cutoff } } }),
    db().session.deleteMany({ where: { OR: [{ expiresAt: { lt: cutoff } }, { revokedAt: { lt: cutoff } }] } }),
  ]);
  const securePayments = await expireAndReconcileSecurePayments();
  const idempotencyKeys = await purgeExpiredIdempotencyKeys();
  return { challenges: challenges.count, sessions: sessions.count, securePayments, idempotencyKeys };
}
