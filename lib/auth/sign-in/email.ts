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

function locked(until: Date): AppError {
  const retryAfter = Math.max(1, Math.ceil((until.getTime() - nowMs()) / 1000));
  return new AppError("rate_limited", "Too many failed sign-in attempts; try again later", {
    headers: { "retry-after": String(retryAfter) },
  });
}

/**
 * Every attempt is counted first, in one atomic UPDATE, and only then is the password
 * checked: however many attempts race, at most MAX_FAILURES of them reach the hash check
 * before the lock. A correct password within the budget resets the count.
 */
export async function login(email: string, password: string) {
  const normalized = normalizeEmail(email);
  const at = new Date(nowMs());
  const [counted] = await db().$queryRaw<{ id: string; failedLogins: number }[]>`
    UPDATE "User" SET "failedLogins" = "failedLogins" + 1, "lockedUntil" = NULL
    WHERE email = ${normalized} AND ("lockedUntil" IS NULL OR "lockedUntil" <= ${at})
    RETURNING id, "failedLogins"`;
  if (!counted) {
    const user = await db().user.findUnique({ where: { email: normalized }, select: { lockedUntil: true } });
    if (user?.lockedUntil && user.lockedUntil > at) throw locked(user.lockedUntil);
    await verifyPassword(password, null); // unknown email: same answer, same cost
    throw new AppError("unauthorized", "Invalid email or password");
  }
  const lockUntil = new Date(at.getTime() + LOCK_MS);
  if (counted.failedLogins > MAX_FAILURES) {
    await db().user.updateMany({ where: { id: counted.id, lockedUntil: null }, data: { failedLogins: 0, lockedUntil: lockUntil } });
    throw locked(lockUntil);
  }
  const user = await db().user.findUniqueOrThrow({ where: { id: counted.id } });
  if (!(await verifyPassword(password, user.passwordHash))) {
    if (counted.failedLogins === MAX_FAILURES) {
      await db().user.updateMany({ where: { id: user.id, lockedUntil: null }, data: { failedLogins: 0, lockedUntil: lockUntil } });
    }
    throw new AppError("unauthorized", "Invalid email or password");
  }
  await db().user.update({ where: { id: user.id }, data: { failedLogins: 0, lockedUntil: null } });
  const session = await createSession(user, "email");
  return { ...session, user: { id: user.id, accountId: user.accountId, email: user.email } };
}
