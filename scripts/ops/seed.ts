/**
 * `npm run seed -- --json`: idempotently creates the demo account with a backend client ID,
 * a browser client ID (origin http://localhost:3000) and an API key, and prints them.
 * The demo API key is derived from DEMO_SEED (default: a fixed development value) so every
 * run prints the same working key. Refuses to run with NODE_ENV=production.
 */
import { DEMO, demoApiKey } from "@/lib/accounts/demo";
import { hashPassword } from "@/lib/auth/passwords";
import { hashSecret } from "@/lib/auth/secrets";
import { loginThrottleKey } from "@/lib/auth/sign-in/email";
import { networkRuntime } from "@/lib/chain/config";
import { db, disconnectDb } from "@/lib/db";
import { destinationIdOf } from "@/lib/destinations/erc7828";
import { env } from "@/lib/env";
import { makeDemoPayments } from "../devnet/demo-payments";
import { adoptRunningApp } from "../runtime/runtime-file";

const { accountId: ACCOUNT_ID, apiKeyId: API_KEY_ID, backendClientId: BACKEND_CLIENT_ID, browserClientId: BROWSER_CLIENT_ID } = DEMO;

/** The demo payee (anvil's account 2) receives USDC on sepolia — the devnet when one runs. */
async function seedDestination(client: ReturnType<typeof db>): Promise<string> {
  const payee = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
  const rt = networkRuntime("sepolia");
  const usdc = rt.tokens.find((t) => t.symbol === "USDC")!;
  const id = destinationIdOf(payee, rt.network.chainId, usdc.address);
  await client.payeeDestination.updateMany({ where: { accountId: ACCOUNT_ID, active: true, NOT: { id } }, data: { active: false } });
  await client.payeeDestination.upsert({
    where: { id },
    create: {
      id,
      accountId: ACCOUNT_ID,
      walletAddress: payee,
      network: "sepolia",
      chainId: rt.network.chainId,
      tokenAddress: usdc.address,
      tokenSymbol: "USDC",
    },
    update: { active: true, deactivatedAt: null },
  });
  await client.clientId.update({ where: { id: BROWSER_CLIENT_ID }, data: { boundDestinationId: id } });
  return id;
}

export async function seedDemo(): Promise<{
  accountId: string;
  apiKey: string;
  clientId: string;
  browserClientId: string;
  destinationId: string;
  appUrl: string;
  signIn: { url: string; email: string; password: string };
}> {
  const apiKey = demoApiKey();
  const client = db();
  await client.account.upsert({ where: { id: ACCOUNT_ID }, create: { id: ACCOUNT_ID, name: "Demo platform" }, update: {} });
  await client.apiKey.upsert({
    where: { id: API_KEY_ID },
    create: { id: API_KEY_ID, accountId: ACCOUNT_ID, name: "demo", prefix: apiKey.slice(0, 10), keyHash: hashSecret(apiKey) },
    update: { keyHash: hashSecret(apiKey), prefix: apiKey.slice(0, 10), revokedAt: null },
  });
  await client.clientId.upsert({
    where: { id: BACKEND_CLIENT_ID },
    create: { id: BACKEND_CLIENT_ID, accountId: ACCOUNT_ID, name: "Demo backend", allowedDomains: [] },
    update: { status: "active" },
  });
  await client.clientId.upsert({
    where: { id: BROWSER_CLIENT_ID },
    create: { id: BROWSER_CLIENT_ID, accountId: ACCOUNT_ID, name: "Demo browser", allowedDomains: ["http://localhost:3000"] },
    update: { status: "active" },
  });
  const destinationId = await seedDestination(client);
  // A person to sign in to the dashboard with: email/password and the payee's wallet, both in the demo account.
  const passwordHash = await hashPassword(DEMO.password);
  await client.user.upsert({
    where: { id: DEMO.userId },
    // Locally the demo user is also the operator (/admin); production never runs this seed.
    create: { id: DEMO.userId, accountId: ACCOUNT_ID, email: DEMO.email, passwordHash, isAdmin: true },
    update: { passwordHash, isAdmin: true },
  });
  await client.loginThrottle.deleteMany({ where: { emailKey: loginThrottleKey(DEMO.email) } });
  await client.user.upsert({
    where: { id: DEMO.walletUserId },
    create: { id: DEMO.walletUserId, accountId: ACCOUNT_ID, walletAddress: DEMO.wallet },
    update: {},
  });
  return {
    accountId: ACCOUNT_ID,
    apiKey,
    clientId: BACKEND_CLIENT_ID,
    browserClientId: BROWSER_CLIENT_ID,
    destinationId,
    appUrl: env().APP_URL,
    signIn: { url: `${env().APP_URL.replace(/\/$/, "")}/sign-in`, email: DEMO.email, password: DEMO.password },
  };
}

if (process.argv[1]?.endsWith("seed.ts")) {
  const taken = adoptRunningApp();
  if (taken.length > 0 && !process.argv.includes("--json")) console.error(`[seed] using the running app's ${taken.join(" and ")}`);
  if (env().NODE_ENV === "production" && !process.argv.includes("--force")) {
    console.error("Refusing to seed a production database (pass --force to override).");
    process.exit(1);
  }
  const asJson = process.argv.includes("--json");
  seedDemo()
    .then(async (out) => {
      // `npm run dev` with its devnet: a few real demo payments, so the dashboard is not empty at first sight.
      if (process.argv.includes("--demo-payments")) {
        const made = await makeDemoPayments().catch((err: unknown) => {
          console.error(`[seed] demo payments skipped: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
          return 0;
        });
        if (made > 0 && !asJson) console.error(`[seed] ${made} demo payments made on the devnet`);
      }
      console.log(asJson ? JSON.stringify(out) : JSON.stringify(out, null, 2));
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    })
    .finally(() => disconnectDb());
}
