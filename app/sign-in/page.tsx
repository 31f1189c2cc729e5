import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard, AuthShell, authLink, Link } from "@/components/auth/auth-shell";
import { PasswordForm } from "@/components/auth/password-form";
import { WalletSignIn } from "@/components/auth/wallet-sign-in";
import { networkRuntime } from "@/lib/chain/config";
import { primaryLocalNetwork } from "@/lib/chain/stored";
import { env } from "@/lib/env";
import { currentUser, safeNext } from "@/lib/http/page-session";
import { signInWithPassword } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in", robots: { index: false } };

const isLocal = (url: string) => /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(url);

/** The network wallets sign in on: a local devnet when one runs, else Base (SIWE only names a chain). */
function walletNetwork() {
  const rt = primaryLocalNetwork() ?? networkRuntime("base");
  const local = rt.rpcUrl && isLocal(rt.rpcUrl) ? rt.rpcUrl : null;
  return { chainId: rt.network.chainId, name: rt.network.name, testnet: rt.network.testnet, rpcUrl: local };
}

/** The SIWE domain and URI: APP_URL's, as a /v1 challenge's (lib/auth/sign-in/wallet.ts). */
function siweOrigin() {
  const app = new URL(env().APP_URL);
  return { domain: app.host, uri: app.origin };
}

type Props = { searchParams: Promise<{ next?: string | string[] }> };

export default async function SignInPage({ searchParams }: Props) {
  const raw = (await searchParams).next;
  const next = safeNext(typeof raw === "string" ? raw : null);
  if (await currentUser()) redirect(next);
  return (
    <AuthShell
      title="Sign in to Duebill"
      footer={
        <>
          No account yet?{" "}
          <Link href="/register" className={authLink}>
            Create one
          </Link>
        </>
      }
    >
      <AuthCard title="With email">
        <PasswordForm action={signInWithPassword} submit="Sign in" next={next} autoComplete="current-password" />
      </AuthCard>
      <AuthCard title="With a wallet">
        <WalletSignIn network={walletNetwork()} origin={siweOrigin()} next={next} />
      </AuthCard>
    </AuthShell>
  );
}
