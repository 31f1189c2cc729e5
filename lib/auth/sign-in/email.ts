import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { createSession } from "@/lib/auth/sessions";
import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { prefixedId } from "@/lib/ids";

/**
 * Email/password sign-in. Unknown email and wrong password get the same answer and cost the
 * same (a dummy hash is checked). After MAX_FAILURES wrong passwords in a row an account is
 * locked for LOCK_MS; a correct password resets the count.
 */
export const MAX_FAILURES = 5;
export const LOCK_MS = 15 * 60 * 1000;

const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function register(email: string, password: string) {
  const normalized = normalizeEmail(email);
  const passwordHash = await hashPassword(password);
  const existing = await db().user.findUnique({ where: { email: normalized }, select: { id: true } });
  if (existing) throw new AppError("conflict", "An account with this email already exists");
  try {
    return await db().$transaction(async (tx) => {
      const account = await tx.account.create({ data: { id: prefixedId("acc_"), name: normalized } });
      const user = await tx.user.create({ data: { id: prefixedId("usr_"), accountId: account.id, email: normalized, passwordHash } });
      return { id: user.id, accountId: account.id, email: normalized };
    });
  } catch (err) {
    if ((err as { code?: string }).code === "P2002") throw new AppError("conflict", "An account with this email already exists");
    throw err;
  }
}

export async function login(email: string, password: string) {
  const user = await db().user.findUnique({ where: { email: normalizeEmail(email) } });
  if (user?.lockedUntil && user.lockedUntil.getTime() > nowMs()) {
    const retryAfter = Math.ceil((user.lockedUntil.getTime() - nowMs()) / 1000);
    throw new AppError("rate_limited", "Too many failed sign-in attempts; try again later", { headers: { "retry-after": String(retryAfter) } });
  }
  const ok = await verifyPassword(password, user?.passwordHash ?? null);
  if (!user || !ok) {
    if (user) {
      const failures = user.failedLogins + 1;
      await db().user.update({
        where: { id: user.id },
        data: failures >= MAX_FAILURES ? { failedLogins: 0, lockedUntil: new Date(nowMs() + LOCK_MS) } : { failedLogins: failures },
      });
    }
    throw new AppError("unauthorized", "Invalid email or password");
  }
  if (user.failedLogins > 0 || user.lockedUntil) await db().user.update({ where: { id: user.id }, data: { failedLogins: 0, lockedUntil: null } });
  const session = await createSession(user, "email");
  return { ...session, user: { id: user.id, accountId: user.accountId, email: user.email } };
}
