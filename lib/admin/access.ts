import { notFound as notFoundPage, redirect } from "next/navigation";
import { addressKey } from "@/lib/chain/address";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { currentUser, type PageUser } from "@/lib/http/page-session";

const list = (v: string | undefined) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** An operator: User.isAdmin (granted by the CLI), or named in ADMIN_EMAILS / ADMIN_WALLETS. */
export async function isAdmin(user: PageUser["user"]): Promise<boolean> {
  const { ADMIN_EMAILS, ADMIN_WALLETS } = env();
  if (user.email && list(ADMIN_EMAILS).some((e) => e.toLowerCase() === user.email!.toLowerCase())) return true;
  if (user.walletAddress && list(ADMIN_WALLETS).some((w) => addressKey(w) === addressKey(user.walletAddress!))) return true;
  const row = await db().user.findUnique({ where: { id: user.id }, select: { isAdmin: true } });
  return row?.isAdmin === true;
}

export interface AdminUser extends PageUser {
  /** How the audit log names this operator. */
  actor: string;
}

const actorOf = (me: PageUser) => `user:${me.user.id} ${me.user.email ?? me.user.walletAddress ?? ""}`.trim();

/**
 * For /admin pages: signed out → sign-in; signed in but not an operator → 404 (the admin area's
 * existence is not advertised to integrators).
 */
export async function requireAdmin(next: string): Promise<AdminUser> {
  const me = await currentUser();
  if (!me) redirect(`/sign-in?next=${encodeURIComponent(next)}`);
  if (!(await isAdmin(me.user))) notFoundPage();
  return { ...me, actor: actorOf(me) };
}

/** For admin server actions: refused (401 / 403) rather than redirected. */
export async function adminForAction(): Promise<AdminUser> {
  const me = await currentUser();
  if (!me) throw new AppError("unauthorized", "Your session has ended. Sign in again.");
  if (!(await isAdmin(me.user))) throw new AppError("forbidden", "Operators only");
  return { ...me, actor: actorOf(me) };
}
