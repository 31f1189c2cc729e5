/**
 * Issue 32, the payer's side: a subscription whose allowance is short, opened from the link a
 * reminder carries (/subscriptions/{token}); the payer connects the injected wallet through
 * RainbowKit and fixes it with one approval; the chain (read here with viem, not through the app)
 * shows the new allowance and the page says all set. The merchant's dashboard shows a past-due
 * schedule with its attempts and the payer's page. Screenshots at 1280 and 390 px.
 */
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { createPublicClient, createWalletClient, encodeFunctionData, erc20Abi, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { withDb } from "./support/api";
import { connectTestWallet, expect, test } from "./support/fixtures";

/** The devnet's recurring contract (deterministic deployment, as e2e/forms.spec.ts uses it). */
const RECURRING = "0x0165878A594ca255338adfa4d48449f69242Eb8F";
const DEMO = { email: "demo@duebill.local", password: "duebill-demo" };
const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function shootBoth(page: Page, shot: (n: string) => Promise<void>, name: string): Promise<void> {
  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${vp.width} px`).toBeLessThanOrEqual(0);
    await shot(`dunning-${name}-${vp.name}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** An active schedule of the demo account: 6 monthly payments of 7 USDC from the devnet payer, payment 1 due in 2 days. */
async function insertSchedule(state: Parameters<typeof withDb>[0], opts: { pastDue?: boolean; deadlineInDays?: number } = {}) {
  const id = `01DUNNING${randomBytes(8).toString("hex").toUpperCase()}`.slice(0, 26);
  const token = randomBytes(24).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const first = opts.pastDue ? now - 3_600 : now + 2 * 86_400;
  await withDb(state, async (db) => {
    await db.query(
      `INSERT INTO "RecurringSchedule" ("id","accountId","network","chainId","contract","token","invoiceCurrency","paymentCurrency",
         "frequency","startDate","payer","payee","amount","totalPayments","dueTimes","deadline","nonce","scheduleId","status",
         "processedPayments","nextDueAt","permitSignature","payerToken","pastDueIndex","pastDueSince","failureCode","failureReason","updatedAt")
       VALUES ($1,$2,'sepolia',11155111,$3,$4,'USDC-sepolia','USDC-sepolia','MONTHLY',to_timestamp($5) AT TIME ZONE 'UTC',$6,$7,7000000,6,$8,$9,'7',$10,
         'active',0,to_timestamp($11) AT TIME ZONE 'UTC','0x00',$12,$13,$14,$15,$16,now())`,
      [
        id,
        state.demo.accountId,
        RECURRING,
        state.devnet.tokens.USDC,
        first,
        state.devnet.payer.address,
        state.devnet.payee,
        Array.from({ length: 6 }, (_, i) => first + i * 2_592_000),
        opts.deadlineInDays !== undefined ? now + opts.deadlineInDays * 86_400 : first + 200 * 86_400,
        `0x${randomBytes(32).toString("hex")}`,
        opts.pastDue ? now + 1_800 : first,
        token,
        opts.pastDue ? 1 : null,
        opts.pastDue ? new Date((now - 3_600) * 1000) : null,
        opts.pastDue ? "insufficient_allowance" : null,
        opts.pastDue ? "The payer's allowance to the recurring contract is below the payment amount." : null,
      ],
    );
    if (opts.pastDue)
      await db.query(
        `INSERT INTO "RecurringAttempt" ("id","scheduleId","index","attempt","at","reason","missing","nextRetryAt")
         VALUES ($1,$2,1,1,now() - interval '1 hour','insufficient_allowance',7000000,now() + interval '30 minutes')`,
        [`${id}A1`, id],
      );
  });
  return { id, token };
}

test("a payer fixes a short allowance from the subscription page in one approval", async ({ page, state, wallet, shot }) => {
  const pub = createPublicClient({ transport: http(state.devnet.rpcUrl) });
  const payer = privateKeyToAccount(state.devnet.payer.privateKey);
  const usdc = state.devnet.tokens.USDC as `0x${string}`;
  const allowance = () => pub.readContract({ address: usdc, abi: erc20Abi, functionName: "allowance", args: [payer.address, RECURRING] });
  // Start from no allowance to the recurring contract (other journeys may have approved it).
  const hash = await createWalletClient({ account: payer, transport: http(state.devnet.rpcUrl) }).sendTransaction({
    chain: null,
    to: usdc,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [RECURRING, 0n] }),
  });
  await pub.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  expect(await allowance()).toBe(0n);

  const { token } = await insertSchedule(state);
  await page.goto(`/subscriptions/${token}`);
  await expect(page).toHaveTitle(/7 USDC monthly/);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  await expect(page.getByTestId("schedule-status")).toHaveText("Active");
  await expect(page.getByTestId("next-due")).toContainText("7 USDC on");
  await expect(page.getByTestId("missing")).toContainText("Your allowance to the subscription contract is short by 7 USDC.");
  await expect(page.getByRole("button", { name: "Connect wallet" })).toBeEnabled();
  await shootBoth(page, shot, "01-short-allowance");

  await connectTestWallet(page, wallet.address);
  const approve = page.getByRole("button", { name: "Approve 42 USDC" });
  await expect(approve).toBeEnabled();
  await shootBoth(page, shot, "02-connected");
  await approve.click();
  // The wallet switches to the devnet's chain, sends approve(contract, 42 USDC); the page re-reads the chain.
  await expect(page.getByTestId("all-set")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("missing")).toHaveCount(0);
  expect(await allowance()).toBe(42_000_000n);
  expect(wallet.calls.some((c) => c.method === "eth_sendTransaction")).toBe(true);
  await expect(page.getByRole("button", { name: /Approve/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Cancel subscription…" })).toBeVisible();
  await shootBoth(page, shot, "03-all-set");

  // An unknown token: not found, nothing about any schedule.
  const res = await page.goto(`/subscriptions/${randomBytes(24).toString("base64url")}`);
  expect(res?.status()).toBe(404);
});

test("the merchant's dashboard shows a past-due schedule, its attempts, the next try and the payer's page", async ({
  page,
  state,
  shot,
}) => {
  const { token } = await insertSchedule(state, { pastDue: true });
  await page.goto(`/sign-in?next=${encodeURIComponent("/dashboard/recurring")}`);
  const card = page.getByRole("region", { name: "With email" });
  await card.getByLabel("Email").fill(DEMO.email);
  await card.getByLabel("Password").fill(DEMO.password);
  await card.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard\/recurring$/);
  const row = page.getByTestId("schedule").filter({ has: page.locator(`a[href$="/subscriptions/${token}"]`) });
  await expect(row).toContainText("past due");
  await expect(row.getByTestId("schedule-dunning")).toContainText("Past due: 1 attempt, last allowance short (7 USDC missing) · next try");
  await row.scrollIntoViewIfNeeded();
  await shootBoth(page, shot, "04-dashboard-past-due");
});

test("a payer renews a permit that ends before the schedule does, with one signature", async ({ page, state, wallet, shot }) => {
  // An allowance that covers the schedule (whatever other journeys left), so only the permit is short.
  const pub = createPublicClient({ transport: http(state.devnet.rpcUrl) });
  const payer = privateKeyToAccount(state.devnet.payer.privateKey);
  const hash = await createWalletClient({ account: payer, transport: http(state.devnet.rpcUrl) }).sendTransaction({
    chain: null,
    to: state.devnet.tokens.USDC as `0x${string}`,
    data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [RECURRING, 42_000_000n] }),
  });
  await pub.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  // The permit ends in 3 days, long before the sixth payment: the page says so and offers the renewal.
  const { id, token } = await insertSchedule(state, { deadlineInDays: 3 });
  await page.goto(`/subscriptions/${token}`);
  await expect(page.getByTestId("permit-expiring")).toContainText("Your authorization for this subscription ends on");
  // Balance and allowance are fine; the page does not call it "all set" while the permit is ending.
  await expect(page.getByTestId("all-set")).toHaveText("Your balance and allowance cover the next payment.");
  await connectTestWallet(page, wallet.address);
  const renew = page.getByRole("button", { name: "Renew authorization" });
  await expect(renew).toBeEnabled();
  await shootBoth(page, shot, "05-permit-expiring");
  await renew.click();
  // The wallet signs the same permit with a later deadline (typed data, no transaction); the server checks it is the payer's.
  await expect(page.getByTestId("permit-expiring")).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId("all-set")).toHaveText("All set: your balance and allowance cover the next payment.");
  await expect(page.getByRole("button", { name: "Renew authorization" })).toHaveCount(0);
  expect(wallet.calls.some((c) => c.method === "eth_signTypedData_v4")).toBe(true);
  expect(wallet.calls.some((c) => c.method === "eth_sendTransaction")).toBe(false);
  const stored = await withDb(
    state,
    async (db) => (await db.query(`SELECT deadline FROM "RecurringSchedule" WHERE id = $1`, [id])).rows[0],
  );
  expect(Number(stored.deadline)).toBeGreaterThan(Math.floor(Date.now() / 1000) + 150 * 86_400);
  await shootBoth(page, shot, "06-permit-renewed");
});
