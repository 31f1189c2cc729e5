import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { hashSecret } from "@/lib/auth/secrets";
import { createSession } from "@/lib/auth/sessions";
import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { prefixedId } from "@/lib/ids";

/**
 * Email/password sign-in. Nothing here tells whether an email has an account:
 * - login: unknown email and wrong password get the same answer and cost the same (a dummy hash
 *   is checked), and the lockout (MAX_FAILURES wrong attempts in a row → LOCK_MS) counts per
 *   email whether or not an account has it (LoginThrottle), so an unknown email locks too;
 * - register: an email that already has an account answers exactly like a new one (201, fresh
 *   IDs) and changes nothing; the owner's password and sessions are untouched.
 * A correct password resets the count.
 */
export const MAX_FAILURES = 5;
export const LOCK_MS = 15 * 60 * 1000;

const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The LoginThrottle key of an email: sha256, so emails typed at the form are not stored in clear. */
export const loginThrottleKey = (email: string) => hashSecret(`login:${normalizeEmail(email)}`);

/**
 * POST /v1/auth/register. The answer is the same for a new email and for one that already has an
 * account (201 `{id, accountId, email}`; for an existing email the IDs are fresh ones that name
 * nothing and nothing is written), so registration is no oracle for which emails exist. The
 * password is hashed first either way, so both cost the same.
 */
export async function register(email: string, password: string) {
  const normalized = normalizeEmail(email);
  const passwordHash = await hashPassword(password);
  const unchanged = () => ({ id: prefixedId("usr_"), accountId: prefixedId("acc_"), email: normalized });
  const existing = await db().user.findUnique({ where: { email: normalized }, select: { id: true } });
  if (existing) return unchanged();
  try {
    return await db().$transaction(async (tx) => {
      const account = await tx.account.create({ data: { id: prefixedId("acc_"), name: normalized } });
      const user = await tx.user.create({ data: { id: prefixedId("usr_"), accountId: account.id, email: normalized, passwordHash } });
      return { id: user.id, accountId: account.id, email: normalized };
    });
  } catch (err) {
    // A concurrent registration of the same email won: answered like any existing email.
    if ((err as { code?: string }).code === "P2002") return unchanged();
    throw err;
  }
}

/** "Too many failed attempts. Try again in 14 minutes." — the wait rounded up to whole minutes (at least one). */
export function lockoutMessage(remainingMs: number): string {
  const minutes = Math.max(1, Math.ceil(remainingMs / 60_000));
  return `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** The lockout's answer, the same for /v1/auth/login and the sign-in page (next-auth shows the message). */
function locked(until: Date): AppError {
  const remaining = until.getTime() - nowMs();
  const retryAfter = Math.max(1, Math.ceil(remaining / 1000));
  return new AppError("rate_limited", lockoutMessage(remaining), {
    headers: { "retry-after": String(retryAfter) },
  });
}

const invalidCredentials = () => new AppError("unauthorized", "Invalid email or password");

/**
 * Every attempt is counted first, in one atomic upsert on the email's LoginThrottle row, and
 * only then is the password checked: however many attempts race, at most MAX_FAILURES of them
 * reach the hash check before the lock. The same for an email with no account.
 */
export async function login(email: string, password: string) {
  const normalized = normalizeEmail(email);
  const key = loginThrottleKey(normalized);
  const at = new Date(nowMs());
  const [counted] = await db().$queryRaw<{ failedLogins: number }[]>`
    INSERT INTO "LoginThrottle" ("emailKey", "failedLogins", "lockedUntil", "updatedAt") VALUES (${key}, 1, NULL, ${at})
    ON CONFLICT ("emailKey") DO UPDATE
      SET "failedLogins" = "LoginThrottle"."failedLogins" + 1, "lockedUntil" = NULL, "updatedAt" = ${at}
      WHERE "LoginThrottle"."lockedUntil" IS NULL OR "LoginThrottle"."lockedUntil" <= ${at}
    RETURNING "failedLogins"`;
  if (!counted) {
    const row = await db().loginThrottle.findUnique({ where: { emailKey: key }, select: { lockedUntil: true } });
    throw locked(row?.lockedUntil && row.lockedUntil > at ? row.lockedUntil : new Date(at.getTime() + 1000));
  }
  const lockUntil = new Date(at.getTime() + LOCK_MS);
  const lock = () =>
    db().loginThrottle.updateMany({ where: { emailKey: key, lockedUntil: null }, data: { failedLogins: 0, lockedUntil: lockUntil } });
  if (counted.failedLogins > MAX_FAILURES) {
    await lock();
    throw locked(lockUntil);
  }
  const user = await db().user.findUnique({ where: { email: normalized } });
  // Unknown email: the dummy hash is checked, same answer, same cost.
  const ok = await verifyPassword(password, user?.passwordHash ?? null);
  if (!user || !ok) {
    if (counted.failedLogins === MAX_FAILURES) await lock();
    throw invalidCredentials();
  }
  await db().loginThrottle.deleteMany({ where: { emailKey: key } });
  const session = await createSession(user, "email");
  return { ...session, user: { id: user.id, accountId: user.accountId, email: user.email } };
}
