/**
 * What the journeys know of the running stack (handed over by global-setup through
 * E2E_STATE) and the API calls and database touches they need to set a scene up.
 */
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { destinationIdOf } from "@/lib/destinations/erc7828";
import type { SeededDemo } from "./app-server";

export interface E2eState {
  baseUrl: string;
  databaseUrl: string;
  demo: SeededDemo;
  devnet: {
    rpcUrl: string;
    chainId: number;
    payer: { address: `0x${string}`; privateKey: `0x${string}` };
    /** A funded wallet the server's KYT deny list blocks (KYT_DENY_LIST). */
    deniedPayer: { address: `0x${string}`; privateKey: `0x${string}` };
    payee: `0x${string}`;
    tokens: Record<string, `0x${string}`>;
    erc20FeeProxy: `0x${string}`;
  };
  /** The cross-chain source chain beside the devnet. */
  bridge: { rpcUrl: string; chainId: number; name: string };
}

export function e2eState(): E2eState {
  const raw = process.env.E2E_STATE;
  if (!raw) throw new Error("E2E_STATE is not set: run the journeys through `playwright test` (global-setup starts the stack)");
  return JSON.parse(raw) as E2eState;
}

export interface LinkResult {
  requestIds: string[];
  securePaymentUrl: string;
  token: string;
}

/** POST /v2/secure-payments with the demo backend client ID (x-client-id alone: it is not linked to an orchestrator). */
export async function createLink(state: E2eState, body: Record<string, unknown>): Promise<LinkResult> {
  const res = await fetch(`${state.baseUrl}/v2/secure-payments`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-client-id": state.demo.clientId },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST /v2/secure-payments → ${res.status}: ${text}`);
  return JSON.parse(text) as LinkResult;
}

export async function withDb<T>(state: E2eState, fn: (db: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: state.databaseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** One active destination per account (a unique index): deactivate the account's others, in the same transaction. */
async function deactivateOthers(db: pg.Client, accountId: string, id: string): Promise<void> {
  await db.query(
    `UPDATE "PayeeDestination" SET "active" = false, "deactivatedAt" = now() WHERE "accountId" = $1 AND "active" AND "id" <> $2`,
    [accountId, id],
  );
}

/** Re-activates the seeded EVM destination (another journey may have registered a different one). */
export async function activateDestination(state: E2eState, id: string): Promise<void> {
  await withDb(state, async (db) => {
    await db.query("BEGIN");
    await deactivateOthers(db, state.demo.accountId, id);
    await db.query(`UPDATE "PayeeDestination" SET "active" = true, "deactivatedAt" = NULL WHERE "id" = $1`, [id]);
    await db.query("COMMIT");
  });
}

const TRON_USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const TRON_CHAIN_ID = 728126428;

/** A USDT-on-Tron destination of the demo account, written directly (registering one through the API needs a wallet session). */
export async function ensureTronDestination(state: E2eState, payee: string): Promise<string> {
  const id = destinationIdOf(payee, TRON_CHAIN_ID, TRON_USDT);
  await withDb(state, async (db) => {
    await db.query("BEGIN");
    await deactivateOthers(db, state.demo.accountId, id);
    await db.query(
      `INSERT INTO "PayeeDestination" ("id", "accountId", "walletAddress", "network", "chainId", "tokenAddress", "tokenSymbol", "active")
       VALUES ($1, $2, $3, 'tron', $4, $5, 'USDT', true)
       ON CONFLICT ("id") DO UPDATE SET "active" = true, "deactivatedAt" = NULL`,
      [id, state.demo.accountId, payee, TRON_CHAIN_ID, TRON_USDT],
    );
    await db.query("COMMIT");
  });
  return id;
}

/** Moves a link's expiry into the past (links live 7 days; the page must show it expired at once). */
export async function expireLink(state: E2eState, token: string): Promise<void> {
  await withDb(state, (db) => db.query(`UPDATE "SecurePayment" SET "expiresAt" = now() - interval '1 minute' WHERE "token" = $1`, [token]));
}

/**
 * A session of the demo account for GET /v2/secure-payments?requestId=.
 * TODO(#5): replace with the shared session test helper once it exists; until then the
 * user and session rows are written as lib/auth/sessions.ts writes them (sha256 of the token).
 */
export async function createDemoSession(state: E2eState): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const userId = `usr_e2e_${randomBytes(6).toString("hex")}`;
  await withDb(state, async (db) => {
    await db.query(`INSERT INTO "User" ("id", "accountId", "email", "updatedAt") VALUES ($1, $2, $3, now())`, [
      userId,
      state.demo.accountId,
      `${userId}@e2e.duebill.test`,
    ]);
    await db.query(
      `INSERT INTO "Session" ("id", "tokenHash", "userId", "accountId", "kind", "expiresAt") VALUES ($1, $2, $3, $4, 'email', now() + interval '1 hour')`,
      [`ses_${userId}`, createHash("sha256").update(token, "utf8").digest("hex"), userId, state.demo.accountId],
    );
  });
  return token;
}

export async function getSecurePayment(
  state: E2eState,
  requestId: string,
  sessionToken: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${state.baseUrl}/v2/secure-payments?requestId=${encodeURIComponent(requestId)}`, {
    headers: { authorization: `Bearer ${sessionToken}` },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * An offered refund of a request (a prepared Refund row, sender payee), written by lib/refunds'
 * insertRefund in a tsx process (e2e/support/offer-refund.ts); returns its id.
 */
export function offerRefund(
  state: E2eState,
  args: { requestId: string; to: string; units: bigint; reason: "excess" | "underpaid" | "late" },
): string {
  const root = path.resolve(__dirname, "../..");
  const r = spawnSync(
    process.execPath,
    [
      path.join(root, "node_modules/tsx/dist/cli.mjs"),
      "e2e/support/offer-refund.ts",
      JSON.stringify({ ...args, units: args.units.toString() }),
    ],
    { cwd: root, env: { ...process.env, DATABASE_URL: state.databaseUrl, NODE_ENV: "test" }, encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`offer-refund failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout.trim().split("\n").pop() ?? "";
}
