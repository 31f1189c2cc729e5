import type { ReactNode } from "react";
import { AdminShell } from "@/components/admin/shell";
import { isAdmin } from "@/lib/admin/access";
import { currentUser } from "@/lib/http/page-session";

export const dynamic = "force-dynamic";

/** The frame for operators only; each page enforces access itself (requireAdmin: sign-in, or 404). */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const me = await currentUser();
  if (!me || !(await isAdmin(me.user))) return children;
  return <AdminShell who={me.user.email ?? me.user.walletAddress ?? ""}>{children}</AdminShell>;
}
