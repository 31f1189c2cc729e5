/**
 * Hosted onboarding, end to end (issue 12): an orchestrator invites a platform through the API;
 * the platform opens the link in Chromium, connects the injected test wallet, signs in with it,
 * picks USDC on the devnet, reviews screening and confirms; the orchestrator's API lists the new
 * link and its local webhook receiver gets one signed client_id.linked; then the orchestrator
 * makes a payment link for the platform (both headers), the page shows its branding, and a payer
 * pays it on anvil with the orchestrator's fee leg in the transaction.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { decodeFunctionData, parseAbi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { hexToTron, tronToHex } from "@/lib/chain/address";
import { type E2eState, e2eState, withDb } from "./support/api";
import { connectTestWallet, expect, test } from "./support/fixtures";
import { startReceiver } from "./support/receiver";
import { TestWallet } from "./support/test-wallet";
import { exposeTronSigner, installTronStub, tronStubCalls } from "./support/tron-stub";

const FEE_RECIPIENT = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const feeProxyAbi = parseAbi([
  "function transferFromWithReferenceAndFee(address _tokenAddress, address _to, uint256 _amount, bytes _paymentReference, uint256 _feeAmount, address _feeAddress)",
]);

interface Orchestrator {
  accountId: string;
  key: string;
}

/** An orchestrator account and key, written as lib/accounts/issue-credentials.ts writes them (keys are issued by an admin). */
async function makeOrchestrator(state: E2eState, name: string): Promise<Orchestrator> {
  const suffix = randomBytes(6).toString("hex");
  const accountId = `acc_e2e_orc_${suffix}`;
  const key = `orc_${randomBytes(24).toString("base64url")}`;
  await withDb(state, async (db) => {
    await db.query(`INSERT INTO "Account" ("id", "name", "updatedAt") VALUES ($1, $2, now())`, [accountId, name]);
    await db.query(`INSERT INTO "OrchestratorKey" ("id", "accountId", "name", "prefix", "keyHash") VALUES ($1, $2, 'e2e', $3, $4)`, [
      `okey_${suffix}`,
      accountId,
      key.slice(0, 10),
      createHash("sha256").update(key, "utf8").digest("hex"),
    ]);
  });
  return { accountId, key };
}

async function api(state: E2eState, orch: Orchestrator, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) {
  const res = await fetch(`${state.baseUrl}${path}`, {
    method,
    headers: { "x-orchestrator-key": orch.key, ...(body === undefined ? {} : { "content-type": "application/json" }), ...extra },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function openInvite(state: E2eState, orch: Orchestrator, clientIdName: string, extra: Record<string, unknown> = {}) {
  const intent = await api(state, orch, "POST", "/v2/orchestrators/client-id-link-intents", {
    clientIdName,
    domains: ["https://studio.acme.example"],
    externalId: `ext-${clientIdName}`,
    ...extra,
  });
  expect(intent.status, JSON.stringify(intent.body)).toBe(201);
  const url = new URL(String(intent.body.url));
  expect(url.origin).toBe(state.baseUrl);
  return `${url.pathname}${url.search}`;
}

/** A platform's browser page with its own injected wallet (no funds needed: it only signs in). */
async function platformPage(newPage: () => Promise<Page>, state: E2eState) {
  const page = await newPage();
  const wallet = new TestWallet({
    rpcUrl: state.devnet.rpcUrl,
    chainId: state.devnet.chainId,
    privateKey: generatePrivateKey(),
    startChainId: 1,
  });
  await wallet.install(page);
  return { page, wallet };
}

/** The bridge's source chain as the page names networks ("Base", not "base"). */
const bridgeName = e2eState().bridge.name;

async function walkThrough(page: Page, wallet: TestWallet, shot: (name: string, p?: Page) => Promise<void>, prefix: string) {
  const current = page.locator('[aria-current="step"]');
  await connectTestWallet(page, wallet.address);
  await expect(current).toContainText("Sign in");
  await shot(`${prefix}-02-connected`, page);
  await page.getByRole("button", { name: "Sign in with wallet" }).click();
  await expect(current).toContainText("Payout destination");
  expect(wallet.calls.some((c) => c.method === "personal_sign")).toBe(true);
  // Only the networks this deployment watches (the devnet's Sepolia and the bridge's source chain), not 14 options.
  await expect(page.getByLabel("Receive payments in").getByRole("option")).toHaveText([
    "USDC on Sepolia",
    "USDT on Sepolia",
    `USDC on ${bridgeName}`,
    `USDT on ${bridgeName}`,
  ]);
  await page.getByLabel("Receive payments in").selectOption({ label: "USDC on Sepolia" });
  await shot(`${prefix}-03-destination`, page);
  await page.getByRole("button", { name: "Use this destination" }).click();
  await expect(current).toContainText("Screening");
  // Only the screening this deployment runs is offered (no Chainalysis key here: the sanctions list alone), no other vendor named.
  const screening = page.getByRole("group", { name: "Screen the wallets that pay you with" });
  await expect(screening.getByRole("radio")).toHaveCount(1);
  await expect(screening.getByRole("radio", { name: /Sanctions list \(OFAC SDN, built in\)/ })).toBeChecked();
  await expect(page.locator("body")).not.toContainText(/Hypernative|Merkle/i);
  await shot(`${prefix}-04-screening`, page);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(current).toContainText("Confirm");
  await shot(`${prefix}-05-confirm`, page);
}

test("a platform onboards through the hosted page; the orchestrator is told, links it and gets paid its fee", async ({
  page,
  context,
  state,
  wallet,
  shot,
}) => {
  const orch = await makeOrchestrator(state, "Orchestra Pay");
  const receiver = await startReceiver();
  try {
    const hook = await api(state, orch, "POST", "/v2/orchestrators/webhooks", { url: receiver.url });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    receiver.secret.value = String(hook.body.secret);
    const brand = await api(state, orch, "POST", "/v2/orchestrators/branding", {
      displayName: "Orchestra Pay",
      accentColor: "#7c3aed",
      supportUrl: "https://help.orchestra.example",
    });
    expect(brand.status, JSON.stringify(brand.body)).toBe(201);
    const fee = await api(state, orch, "POST", "/v2/orchestrators/fee-configs", {
      flow: "get_paid",
      percentageBps: 100,
      feeBearer: "payer",
      evmAddress: FEE_RECIPIENT,
    });
    expect(fee.status, JSON.stringify(fee.body)).toBe(201);

    const path = await openInvite(state, orch, "Acme Studio");
    const platform = await platformPage(() => context.newPage(), state);
    await platform.page.goto(path);
    await expect(platform.page).toHaveTitle(/^Connect to Orchestra Pay/);
    await expect(platform.page.getByRole("heading", { name: "Orchestra Pay invites you to get paid in stablecoins" })).toBeVisible();
    await expect(platform.page.getByRole("region", { name: "Merchant" })).toContainText("Orchestra Pay");
    await expect(platform.page.getByRole("button", { name: "Connect wallet" })).toBeEnabled();
    await shot("onboarding-01-invite", platform.page);
    await walkThrough(platform.page, platform.wallet, shot, "onboarding");
    await platform.page.getByRole("button", { name: "Confirm and link to Orchestra Pay" }).click();
    await expect(platform.page.getByRole("heading", { name: "You're connected" })).toBeVisible();
    const clientId = (await platform.page.getByTestId("created-client-id").textContent())?.trim() ?? "";
    expect(clientId).toMatch(/^cli_/);
    await shot("onboarding-06-done", platform.page);

    // The orchestrator's API lists the link; its receiver gets one signed client_id.linked.
    const links = await api(state, orch, "GET", "/v2/orchestrators/client-ids");
    expect(links.body).toMatchObject({ total: 1, links: [{ clientId, status: "active" }] });
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);
    const event = receiver.received[0]!;
    expect(event.valid).toBe(true);
    expect(event.body).toMatchObject({
      event: "client_id.linked",
      clientId,
      orchestratorId: orch.accountId,
      externalId: "ext-Acme Studio",
      destinationWalletAddress: platform.wallet.address.toLowerCase(),
      currency: "USDC",
    });

    // Reloading the used link says so.
    await platform.page.goto(path);
    await expect(platform.page.getByRole("heading", { name: "This onboarding is already complete" })).toBeVisible();
    await shot("onboarding-07-used", platform.page);

    // The orchestrator makes a payment link for the platform: its branding and its 1 % fee.
    const link = await api(state, orch, "POST", "/v2/secure-payments", { requests: [{ amount: "20" }] }, { "x-client-id": clientId });
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    await page.goto(`/pay/${link.body.token}`);
    const merchant = page.getByRole("region", { name: "Merchant" });
    await expect(merchant).toContainText("Orchestra Pay");
    await expect(page.getByRole("region", { name: "Payment request" })).toContainText(platform.wallet.address);
    await shot("onboarding-08-branded-link");
    await page.getByRole("button", { name: "Connect wallet" }).click();
    await page
      .getByRole("dialog")
      .getByRole("button", { name: /Duebill Test Wallet/ })
      .click();
    await page.getByRole("button", { name: "Approve and pay" }).click();
    await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible({ timeout: 30_000 });
    await shot("onboarding-09-paid");
    const payment = wallet.sent.at(-1)!;
    const { args } = decodeFunctionData({ abi: feeProxyAbi, data: payment.data as `0x${string}` });
    expect(args[1].toLowerCase()).toBe(platform.wallet.address.toLowerCase());
    expect(args[2]).toBe(20_000_000n);
    expect(args[4]).toBe(200_000n); // 1 % of 20 USDC, on top, to the orchestrator
    expect(args[5].toLowerCase()).toBe(FEE_RECIPIENT.toLowerCase());
  } finally {
    await receiver.close();
  }
});

test("onboarding at 390 px and from the keyboard; unknown and expired links say so", async ({ context, state, shot }) => {
  const orch = await makeOrchestrator(state, "Orchestra Mobile");
  const path = await openInvite(state, orch, "Mobile Studio");
  const platform = await platformPage(() => context.newPage(), state);
  const { page } = platform;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(path);
  const connect = page.getByRole("button", { name: "Connect wallet" });
  await expect(connect).toBeEnabled();
  for (let i = 0; i < 12 && !(await connect.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(connect).toBeFocused();
  await shot("onboarding-mobile-01-invite", page);
  await walkThrough(page, platform.wallet, shot, "onboarding-mobile");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.getByRole("button", { name: "Confirm and link to Orchestra Mobile" }).click();
  await expect(page.getByRole("heading", { name: "You're connected" })).toBeVisible();
  await shot("onboarding-mobile-06-done", page);

  await page.goto("/onboarding?token=not-a-real-token-at-all-0123456789");
  await expect(page.getByRole("heading", { name: "This onboarding link is not valid" })).toBeVisible();
  await shot("onboarding-mobile-07-unknown", page);
  const expired = await openInvite(state, orch, "Late Studio");
  await withDb(state, (db) =>
    db.query(`UPDATE "LinkIntent" SET "expiresAt" = now() - interval '1 minute' WHERE "orchestratorAccountId" = $1 AND "usedAt" IS NULL`, [
      orch.accountId,
    ]),
  );
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(expired);
  await expect(page.getByRole("heading", { name: "This onboarding link has expired" })).toBeVisible();
  await shot("onboarding-10-expired", page);
});

test("a Tron platform onboards with TronLink: TRON message sign-in, USDT on Tron", async ({ context, state, shot }) => {
  // The journeys' server watches Tron (TRON_API_URL: e2e/support/tron-node-stub.ts) beside the devnet's EVM
  // networks, so the page offers both wallet kinds, and TronLink only Tron's currencies.
  const orch = await makeOrchestrator(state, "Orchestra Tron");
  const path = await openInvite(state, orch, "Tron Studio");
  const key = generatePrivateKey();
  const address = hexToTron(privateKeyToAccount(key).address);
  const page = await context.newPage();
  await exposeTronSigner(page, key);
  await installTronStub(page, { address, hexAddress: `41${tronToHex(address).slice(2)}`, confirm: "all" });
  await page.goto(path);
  const kinds = page.getByRole("group", { name: "Wallet type" });
  await expect(kinds.getByRole("radio")).toHaveCount(2);
  await expect(kinds.getByRole("radio", { name: /EVM wallet/ })).toBeChecked();
  await page.getByText("TronLink", { exact: true }).click();
  await expect(kinds.getByRole("radio", { name: /TronLink/ })).toBeChecked();
  const current = page.locator('[aria-current="step"]');
  await page.getByRole("button", { name: "Connect TronLink" }).click();
  await expect(page.getByTestId("connected-address")).toHaveText(address);
  await shot("onboarding-tron-01-connected", page);
  await page.getByRole("button", { name: "Sign in with wallet" }).click();
  await expect(current).toContainText("Payout destination");
  expect((await tronStubCalls(page)).some((c) => c.method === "signMessageV2")).toBe(true);
  // TronLink receives on Tron only: exactly Tron's two currencies, none of the EVM networks'.
  await expect(page.getByLabel("Receive payments in").getByRole("option")).toHaveText(["USDC on Tron", "USDT on Tron"]);
  await page.getByLabel("Receive payments in").selectOption({ label: "USDT on Tron" });
  await page.getByRole("button", { name: "Use this destination" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await shot("onboarding-tron-02-confirm", page);
  await page.getByRole("button", { name: "Confirm and link to Orchestra Tron" }).click();
  await expect(page.getByRole("heading", { name: "You're connected" })).toBeVisible();
  await expect(page.getByText("USDT on Tron")).toBeVisible();
  await shot("onboarding-tron-03-done", page);
  const links = await api(state, orch, "GET", "/v2/orchestrators/client-ids");
  expect(links.body).toMatchObject({ total: 1 });
  // The new client ID is bound to the TronLink wallet, on Tron.
  const rows = await withDb(state, (db) =>
    db.query(
      `SELECT d."walletAddress", d."network", d."tokenSymbol" FROM "PayeeDestination" d JOIN "ClientId" c ON c."boundDestinationId" = d."id" WHERE c."name" = 'Tron Studio'`,
    ),
  );
  expect(rows.rows).toEqual([{ walletAddress: address, network: "tron", tokenSymbol: "USDT" }]);
  // And the server really watches Tron: detection's Tron cursor moves with the stand-in's head.
  const tronCursor = () =>
    withDb(state, (db) => db.query<{ lastBlock: string }>(`SELECT "lastBlock"::text FROM "ChainCursor" WHERE "network" = 'tron'`)).then(
      (r) => (r.rows[0] ? BigInt(r.rows[0].lastBlock) : null),
    );
  await expect.poll(tronCursor, { timeout: 15_000 }).not.toBeNull();
  const seen = (await tronCursor()) ?? 0n;
  await expect.poll(tronCursor, { timeout: 30_000 }).toBeGreaterThan(seen);
});

test("an orchestrator's screening plan: only this deployment's providers are accepted, and the page says which one screens", async ({
  context,
  state,
  shot,
}) => {
  const orch = await makeOrchestrator(state, "Orchestra Plan");
  // A vendor this deployment has no adapter for is refused, naming the field.
  const refused = await api(state, orch, "POST", "/v2/orchestrators/client-id-link-intents", {
    clientIdName: "Vendor Studio",
    kyt: { providers: [{ provider: "hypernative" }, { provider: "merklescience" }] },
  });
  expect(refused.status).toBe(400);
  expect((refused.body.errors as { field: string }[])[0]?.field).toBe("kyt.providers.0.provider");
  const path = await openInvite(state, orch, "Plan Studio", { kyt: { providers: [{ provider: "duebill-sanctions" }] } });
  for (const [width, height, name] of [
    [1280, 900, "onboarding-plan"],
    [390, 844, "onboarding-plan-mobile"],
  ] as const) {
    const platform = await platformPage(() => context.newPage(), state);
    const { page } = platform;
    await page.setViewportSize({ width, height });
    await page.goto(path);
    const current = page.locator('[aria-current="step"]');
    await connectTestWallet(page, platform.wallet.address);
    await page.getByRole("button", { name: "Sign in with wallet" }).click();
    await page.getByLabel("Receive payments in").selectOption({ label: "USDC on Sepolia" });
    await page.getByRole("button", { name: "Use this destination" }).click();
    await expect(current).toContainText("Screening");
    await expect(page.getByText("Orchestra Plan screens the wallets that pay you with")).toContainText(
      "Sanctions list (OFAC SDN, built in)",
    );
    await expect(page.getByRole("group", { name: "Screen the wallets that pay you with" })).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText(/Hypernative|Merkle|Chainalysis/i);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(`${name}-04-screening`, page);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(current).toContainText("Confirm");
    await expect(page.getByText("Sanctions list (OFAC SDN, built in)")).toBeVisible();
    await shot(`${name}-05-confirm`, page);
    await page.close();
  }
});
