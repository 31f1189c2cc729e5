import { randomBytes } from "node:crypto";
import { createAccount, createApiKey, createClientId, createOrchestratorKey } from "@/lib/accounts/issue-credentials";
import { db } from "@/lib/db";
import { insertPayment } from "@/lib/detection/record-payment";
import { ulid } from "@/lib/ids";

let n = 0;

export async function makeAccount(name?: string) {
  n += 1;
  return createAccount(name ?? `Test account ${n}`);
}

/** An account with an API key, a backend client ID and a browser client ID. */
export async function makeIntegrator(opts: { domains?: string[] } = {}) {
  const account = await makeAccount();
  const apiKey = await createApiKey(account.id);
  const backend = await createClientId(account.id, { name: "backend" });
  const browser = await createClientId(account.id, { name: "browser", allowedDomains: opts.domains ?? ["https://shop.example"] });
  const orchestrator = await createOrchestratorKey(account.id);
  return {
    account,
    apiKey: apiKey.secret,
    apiKeyId: apiKey.id,
    clientId: backend.clientId,
    browserClientId: browser.clientId,
    orchestratorKey: orchestrator.secret,
  };
}

/**
 * A session of a wallet user of `accountId` (as after wallet sign-in): the proof of control a
 * payee destination needs for that wallet. EVM addresses are stored lowercased, Tron as is.
 */
export async function walletSessionToken(accountId: string, walletAddress: string): Promise<string> {
  const { db } = await import("@/lib/db");
  const { prefixedId } = await import("@/lib/ids");
  const { createSession } = await import("@/lib/auth/sessions");
  const stored = walletAddress.startsWith("0x") ? walletAddress.toLowerCase() : walletAddress;
  const user =
    (await db().user.findUnique({ where: { walletAddress: stored } })) ??
    (await db().user.create({ data: { id: prefixedId("usr_"), accountId, walletAddress: stored } }));
  return (await createSession(user, "wallet")).token;
}

/**
 * An active recurring schedule of the account, made directly in the database (no chain needed),
 * with `requestId` as its payment 1. For suites that need an object to point at (matrix, fuzz).
 */
export async function recurringScheduleOf(accountId: string, requestId: string): Promise<string> {
  const id = ulid();
  const start = Math.floor(Date.UTC(2030, 0, 1) / 1000);
  await db().recurringSchedule.create({
    data: {
      id,
      accountId,
      network: "base",
      chainId: 8453,
      contract: "0x1111111111111111111111111111111111111111",
      token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      invoiceCurrency: "USDC-base",
      paymentCurrency: "USDC-base",
      frequency: "MONTHLY",
      startDate: new Date(start * 1000),
      payer: "0x2222222222222222222222222222222222222222",
      payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
      amount: "1000000",
      totalPayments: 2,
      dueTimes: [start, start + 31 * 86_400],
      deadline: start + 90 * 86_400,
      nonce: "1",
      scheduleId: `0x${"ab".repeat(32)}`,
      permitSignature: `0x${"11".repeat(65)}`,
      status: "active",
      nextDueAt: new Date(start * 1000),
    },
  });
  await db().paymentRequest.update({ where: { id: requestId }, data: { recurringScheduleId: id, recurringIndex: 1 } });
  return id;
}

/** A paid request with one detected payment, written directly (no chain): for lists, searches and dashboards. */
export async function insertPaidRequest(
  accountId: string,
  currency: string,
  units: bigint,
  daysAgo: number,
  extra: { payer?: string; reference?: string; feeAmount?: bigint; kind?: "request" | "payout"; hexId?: boolean } = {},
) {
  // `hexId`: an id the API's request routes accept (REQUEST_ID_PATTERN, 01 + 64 hex), for suites that go through them.
  const id = extra.hexId ? `01${randomBytes(32).toString("hex")}` : `01${ulid().toLowerCase().padEnd(64, "0")}`;
  const request = await db().paymentRequest.create({
    data: {
      id,
      accountId,
      kind: extra.kind ?? "request",
      network: "base",
      invoiceCurrency: currency,
      paymentCurrency: currency,
      tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      amount: "1",
      expectedAmount: units.toString(),
      amountPaid: units.toString(),
      payee: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      salt: "00",
      paymentReference: `0x${id.slice(2, 18)}`,
      referenceHash: `0x${id.slice(2)}`,
      status: "paid",
      reference: extra.reference ?? `R-${accountId}`,
    },
  });
  // As detection writes it: with the request's account, counted in the daily rollup.
  await db().$transaction((tx) =>
    insertPayment(tx, request, {
      id: ulid(),
      txHash: `0x${id.slice(2)}`,
      logIndex: 0,
      blockNumber: 1n,
      blockHash: `0x${"0".repeat(64)}`,
      payer: extra.payer ?? null,
      payee: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      amount: units.toString(),
      feeAmount: (extra.feeAmount ?? 0n).toString(),
      feeAddress: extra.feeAmount ? "0x90F79bf6EB2c4f870365E785982E1f101E93b906" : null,
      proxyAddress: "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814",
      blockTime: new Date(Date.now() - daysAgo * 86_400_000),
    }),
  );
  return id;
}
