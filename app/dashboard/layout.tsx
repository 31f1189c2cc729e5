import type { ReactNode } from "react";
import { DashboardShell } from "@/components/dashboard/shell";
import { isAdmin } from "@/lib/admin/access";
import { currentUser } from "@/lib/http/page-session";

export const dynamic = "force-dynamic";

/**
 * The frame for a signed-in user. Signing in is enforced by each page (`requireUser(itsPath)`, which
 * also knows where to come back to) and by each server action; signed out, the page redirects.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const me = await currentUser();
  if (!me) return children;
  return (
    <DashboardShell account={me.account.name} who={me.user.email ?? me.user.walletAddress ?? ""} operator={await isAdmin(me.user)}>
      {children}
    </DashboardShell>
  );
}
