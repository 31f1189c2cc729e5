import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { purgeExpiredIdempotencyKeys } from "@/lib/idempotency/store";
import { expireAndReconcileSecurePayments } from "@/lib/secure-payments/settle";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Housekeeping: sign-in challenges and sessions are useless once expired; keep a day of
 * them for investigation, then delete; so are day-old failed-sign-in counts. Pending secure-payment links past their expiry expire.
 */
export async function sweepExpiry(): Promise<{
  challenges: number;
  sessions: number;
  securePayments: { expired: number; settled: number };
  idempotencyKeys: number;
  loginThrottles: number;
}> {
  const cutoff = new Date(nowMs() - DAY_MS);
  const [challenges, sessions, loginThrottles] = await Promise.all([
    db().walletChallenge.deleteMany({ where: { expiresAt: { lt: cutoff } } }),
    db().session.deleteMany({ where: { OR: [{ expiresAt: { lt: cutoff } }, { revokedAt: { lt: cutoff } }] } }),
    // Failed-sign-in counts untouched for a day (and not locked) are forgotten.
    db().loginThrottle.deleteMany({
      where: { updatedAt: { lt: cutoff }, OR: [{ lockedUntil: null }, { lockedUntil: { lt: new Date(nowMs()) } }] },
    }),
  ]);
  const securePayments = await expireAndReconcileSecurePayments();
  const idempotencyKeys = await purgeExpiredIdempotencyKeys();
  return { challenges: challenges.count, sessions: sessions.count, securePayments, idempotencyKeys, loginThrottles: loginThrottles.count };
}
