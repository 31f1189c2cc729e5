import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard, AuthShell, authLink, Link } from "@/components/auth/auth-shell";
import { PasswordForm } from "@/components/auth/password-form";
import { currentUser } from "@/lib/http/page-session";
import { registerWithPassword } from "../sign-in/actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Create an account", robots: { index: false } };

export default async function RegisterPage() {
  if (await currentUser()) redirect("/dashboard");
  return (
    <AuthShell
      title="Create your Duebill account"
      footer={
        <>
          Already have one?{" "}
          <Link href="/sign-in" className={authLink}>
            Sign in
          </Link>{" "}
          (a wallet signs in without registering).
        </>
      }
    >
      <AuthCard title="Email and password">
        <PasswordForm action={registerWithPassword} submit="Create account" autoComplete="new-password" />
      </AuthCard>
    </AuthShell>
  );
}
