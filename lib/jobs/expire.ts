import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db/client";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Housekeeping: sign-in challenges and sessions are useless once expired; keep a day of
 * them for investigation, then delete. (Secure-payment link expiry joins this sweep.)
 */
export async function expireSweep(): Promise<{ challenges: number; sessions: number }> {
  const cutoff = new Date(nowMs() - DAY_MS);
  const [challenges, sessions] = await Promise.all([
    db().walletChallenge.deleteMany({ where: { expiresAt: { lt: cutoff } } }),
    db().session.deleteMany({ where: { OR: [{ expiresAt: { lt: cutoff } }, { revokedAt: { lt: cutoff } }] } }),
  ]);
  return { challenges: challenges.count, sessions: sessions.count };
}
