import { createHash } from "node:crypto";
import { env } from "@/lib/env";

/** The demo account `npm run seed` creates (and `npm run dev` on an embedded database). */
export const DEMO = {
  accountId: "acc_demo",
  apiKeyId: "key_demo",
  backendClientId: "cli_demo_backend",
  browserClientId: "cli_demo_browser",
  userId: "usr_demo",
  walletUserId: "usr_demo_wallet",
  /** Sign in at /sign-in with these (a local demo only: `npm run seed` refuses production). */
  email: "demo@duebill.local",
  password: "duebill-demo",
  /** The demo payee (anvil account 2) signs in with its wallet into the same account. */
  wallet: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
} as const;

/** The demo API key: derived from DEMO_SEED (a fixed development value by default), so every run prints the same working key. */
export function demoApiKey(seed: string = env().DEMO_SEED ?? "duebill-local-demo"): string {
  return `dbk_demo_${createHash("sha256").update(`duebill-demo-key:${seed}`).digest("base64url").slice(0, 32)}`;
}
