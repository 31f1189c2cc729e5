/**
 * Refunds from the dashboard (issue 28, item 4), as a merchant would do them: a request paid on the
 * devnet (through the API's plan, by the devnet payer) is refunded in part from its page with the
 * payee's wallet (the injected test wallet holding the payee's key): prepared → sent → confirmed by
 * detection, the amount refunded on the request, a badge in the payments list and the overview's
 * Received net of it. An overpaid link (12 USDC sent to its deposit address for 10, the account's
 * default policy: offer) tells the payer on the hosted page what happens to the 2 USDC, and the
 * refund the policy offered goes back in one click from the dashboard; another offer is kept.
 * A Tron request's refund is sent from TronLink (a recording stand-in: no Tron chain runs here) and
 * reaches sent with the wallet's transaction ID. Screenshots at 1280 and 390 px: before, while
 * sent, after, the offer, the overpaid link's hosted page.
 */
import type { Page } from "@playwright/test";
import { createWalletClient, decodeAbiParameters, erc20Abi, http, parseAbiParameters, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { hexToTron, tronToHex } from "@/lib/chain/address";
import { devAccount } from "@/scripts/devnet";
import { activateDestination, createLink, type E2eState, ensureTronDestination, offerRefund, withDb } from "./support/api";
import { anvil, expect, test } from "./support/fixtures";
import { TestWallet } from "./support/test-wallet";
import { installTronStub, tronStubCalls } from "./support/tron-stub";

const DEMO = { email: "demo@duebill.local", password: "duebill-demo" };
const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
/** Anvil's account 2: the demo destination's wallet, the payee of every demo link. */
const PAYEE_INDEX = 2;
const ELSEWHERE = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";

async function signIn(page: Page, next: string): Promise<void> {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  const card = page.getByRole("region", { name: "With email" });
  await card.getByLabel("Email").fill(DEMO.email);
  await card.getByLabel("Password").fill(DEMO.password);
  await card.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[/?]/g, "\\$&")}$`));
}

/** Both widths: no sideways scroll, and a screenshot of each. */
async function shootBoth(page: Page, shot: (n: string) => Promise<void>, name: string): Promise<void> {
  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${vp.width} px`).toBeLessThanOrEqual(0);
    await shot(`refunds-${vp.name}-${name}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The payee's wallet, injected in the page (before its first navigation), starting on another chain. */
async function payeeWallet(page: Page, state: E2eState): Promise<TestWallet> {
  const payee = devAccount(PAYEE_INDEX);
  expect(payee.address).toBe(state.devnet.payee);
  const wallet = new TestWallet({
    rpcUrl: state.devnet.rpcUrl,
    chainId: state.devnet.chainId,
    privateKey: payee.privateKey,
    startChainId: 1,
  });
  await wallet.install(page);
  return wallet;
}

/**
 * The merchant chose to send: RainbowKit's modal is already open (the button reads "Connecting…"),
 * so the test wallet is picked there — unless the page reconnected it by itself.
 */
async function connectPayeeWallet(page: Page, address: string): Promise<void> {
  const connected = page.getByTestId("connected-address");
  const option = page.getByRole("dialog").getByRole("button", { name: /Duebill Test Wallet/ });
  await expect(connected.or(option).first()).toBeVisible();
  if (!(await connected.isVisible())) await option.click();
  await expect(connected).toHaveText(address);
}

/** A demo link of `amount` USDC, paid in full by the devnet payer with the API's plan; waits until detection records it. */
async function paidLink(state: E2eState, amount: string, reference: string): Promise<string> {
  const link = await createLink(state, { requests: [{ amount }], destinationId: state.demo.destinationId, reference });
  const payer = privateKeyToAccount(state.devnet.payer.privateKey);
  const res = await fetch(`${state.baseUrl}/v2/secure-payments/${link.token}/pay?wallet=${payer.address}`);
  const plan = (await res.json()) as { transactions: { to: `0x${string}`; data: `0x${string}` }[] };
  const wallet = createWalletClient({ account: payer, transport: http(state.devnet.rpcUrl) });
  for (const tx of plan.transactions) await wallet.sendTransaction({ chain: null, to: tx.to, data: tx.data });
  const requestId = link.requestIds[0]!;
  await expect
    .poll(
      () =>
        withDb(state, async (db) => (await db.query(`SELECT "status" FROM "PaymentRequest" WHERE "id" = $1`, [requestId])).rows[0]?.status),
      { timeout: 30_000 },
    )
    .toBe("paid");
  return requestId;
}

/** The overview's USDC-on-the-devnet row: what was received, refunded, and the net (decimal numbers). */
async function usdcTotals(page: Page): Promise<{ gross: number; refunded: number; net: number }> {
  await page.goto("/dashboard");
  const row = page.getByTestId("totals-incoming").locator('tr[data-currency="USDC-sepolia"]');
  const cells = (await row.locator("td").allTextContents()).map((t) => Number(t.replace(/[,\s]/g, "").replace("−", "")));
  return cells.length === 5 ? { gross: cells[2]!, refunded: cells[3]!, net: cells[4]! } : { gross: cells[2]!, refunded: 0, net: cells[2]! };
}

const refundRow = (state: E2eState, requestId: string) =>
  withDb(state, async (db) => {
    const { rows } = await db.query(
      `SELECT "id", "status", "amount"::text, "toAddress", "txHash", "sentAt", "confirmedAt" FROM "Refund" WHERE "requestId" = $1 ORDER BY "createdAt"`,
      [requestId],
    );
    return rows as { id: string; status: string; amount: string; toAddress: string; txHash: string | null; sentAt: Date | null }[];
  });

test("a paid request refunded in part from the payee's wallet: prepared → sent → confirmed, on the request, the payments list and the overview", async ({
  page,
  state,
  shot,
}) => {
  await activateDestination(state, state.demo.destinationId);
  const wallet = await payeeWallet(page, state);
  const payer = privateKeyToAccount(state.devnet.payer.privateKey).address;
  const requestId = await paidLink(state, "10", "REFUND-1");
  await signIn(page, "/dashboard");
  const before = await usdcTotals(page);

  await page.goto(`/dashboard/requests/${requestId}`);
  await expect(page.getByTestId("request-status")).toHaveText("Paid");
  const panel = page.getByRole("region", { name: "Refunds" });
  // Everything that can still be refunded, to the payer, by default; the fee's fate said.
  await expect(panel.getByLabel("Amount (USDC)")).toHaveValue("10");
  await expect(panel.getByLabel("Refund to")).toHaveValue(payer);
  await expect(panel.getByTestId("refund-totals")).toContainText("Can still be refunded10 USDC");
  await expect(panel.getByTestId("refund-fee-note")).toContainText("You send the refund from your wallet");
  await shootBoth(page, shot, "01-paid");

  // More than was received: refused, naming the field in words; another address: the exchange warning.
  await panel.getByLabel("Amount (USDC)").fill("10.5");
  await panel.getByRole("button", { name: "Prepare refund" }).click();
  await expect(panel.getByText("Amount is more than what can still be refunded (10 USDC)")).toBeVisible();
  await panel.getByLabel("Refund to").fill(ELSEWHERE);
  await expect(panel.getByTestId("refund-to-warning")).toContainText("exchange's hot wallet");
  await panel.getByLabel("Refund to").fill(payer);
  await expect(panel.getByTestId("refund-to-warning")).toHaveCount(0);
  expect(await refundRow(state, requestId)).toEqual([]);

  // Prepare 4 USDC; the chain mines only when told, so each stage can be seen.
  await anvil(state, "evm_setAutomine", [false]);
  try {
    await panel.getByLabel("Amount (USDC)").fill("4");
    await panel.getByRole("button", { name: "Prepare refund" }).click();
    const job = panel.getByTestId("refund-job");
    await expect(job).toContainText("Refund of 4 USDC");
    await expect(job.getByTestId("refund-progress").locator('[aria-current="step"]')).toContainText("Prepared");
    expect(await refundRow(state, requestId)).toMatchObject([{ status: "prepared", amount: "4000000", toAddress: payer }]);
    // The payee's wallet (it switches to the devnet by itself), then the transactions without another click.
    await connectPayeeWallet(page, wallet.address);
    const steps = job.getByRole("list", { name: "Refund steps" }).getByRole("listitem");
    await expect(steps).toHaveCount(2);
    await expect(steps.nth(0)).toContainText("Approve USDC");
    await expect(steps.nth(1)).toContainText("Refund 4 USDC to");
    await expect.poll(() => wallet.sent.length).toBe(1);
    await anvil(state, "evm_mine");
    await expect.poll(() => wallet.sent.length, { timeout: 20_000 }).toBe(2);
    // Sent: the wallet's hash is reported; detection has not seen it yet (not mined).
    await expect(job.getByTestId("refund-progress").locator('[aria-current="step"]')).toContainText("Sent");
    await expect.poll(async () => (await refundRow(state, requestId))[0]?.status).toBe("sent");
    expect((await refundRow(state, requestId))[0]?.txHash).toBe(wallet.sent[1]!.hash);
    expect(wallet.chainId).toBe(state.devnet.chainId);
    await shootBoth(page, shot, "02-sent");
  } finally {
    await anvil(state, "evm_setAutomine", [true]);
  }
  await anvil(state, "evm_mine");

  // Confirmed by detection: the page updates by itself.
  const done = panel.getByTestId("refund-job").getByRole("status").filter({ hasText: "4 USDC refunded." });
  await expect(done).toBeVisible({ timeout: 60_000 });
  expect(await refundRow(state, requestId)).toMatchObject([{ status: "confirmed", txHash: wallet.sent[1]!.hash }]);
  await expect(page.getByTestId("refund-state")).toHaveText("Partially refunded · 4 USDC");
  await expect(panel.getByTestId("refund-totals")).toContainText("Refunded4 USDC");
  await expect(panel.getByTestId("refund-totals")).toContainText("Can still be refunded6 USDC");
  const history = panel.getByTestId("refund");
  await expect(history).toHaveCount(1);
  await expect(history.getByTestId("refund-status")).toHaveText("Refunded");
  await expect(history).toContainText(wallet.sent[1]!.hash.slice(2, 6));
  await shootBoth(page, shot, "03-confirmed");
  await done.getByRole("button", { name: "Done" }).click();
  // The form is back for the rest.
  await expect(panel.getByLabel("Amount (USDC)")).toHaveValue("6");

  // The payments list: a badge on the payment; the overview: Received net of the refund, the refund apart.
  await page.goto("/dashboard/payments?reference=REFUND-1");
  await expect(page.getByTestId("payments").getByTestId("refund-badge")).toHaveText("Partially refunded · 4 USDC");
  await shootBoth(page, shot, "05-payments");
  const after = await usdcTotals(page);
  expect(after).toEqual({ gross: before.gross, refunded: before.refunded + 4, net: before.net - 4 });
  await expect(page.getByRole("region", { name: "Received (net of refunds), by currency and network" })).toContainText("Refunded");
  await shootBoth(page, shot, "06-overview");
});

/**
 * A link of `amount` USDC (the account's default excess policy: offer) paid with `sent` USDC by a plain
 * transfer from the devnet payer to its deposit address; the e2e server's worker forwards it and
 * detection records it. Waits until the request is labelled over by the difference.
 */
async function overpaidLink(
  state: E2eState,
  amount: string,
  sent: string,
  reference: string,
): Promise<{ token: string; requestId: string }> {
  const link = await createLink(state, { requests: [{ amount }], destinationId: state.demo.destinationId, reference });
  const res = await fetch(`${state.baseUrl}/v2/secure-payments/${link.token}/deposit-address`, { method: "POST" });
  expect(res.status).toBe(200);
  const deposit = (await res.json()) as { address: `0x${string}`; amount: string };
  expect(deposit.amount).toBe(amount);
  const payer = createWalletClient({ account: privateKeyToAccount(state.devnet.payer.privateKey), transport: http(state.devnet.rpcUrl) });
  await payer.writeContract({
    chain: null,
    address: state.devnet.tokens.USDC!,
    abi: erc20Abi,
    functionName: "transfer",
    args: [deposit.address, parseUnits(sent, 6)],
  });
  const requestId = link.requestIds[0]!;
  const status = async () => {
    const r = await fetch(`${state.baseUrl}/v2/request/${requestId}`, { headers: { "x-api-key": state.demo.apiKey } });
    return (await r.json()) as { amountLabel: string | null; excessAmount: string };
  };
  await expect
    .poll(
      async () => {
        const { amountLabel, excessAmount } = await status();
        return { amountLabel, excessAmount };
      },
      { timeout: 60_000 },
    )
    .toEqual({ amountLabel: "over", excessAmount: String(Number(sent) - Number(amount)) });
  const view = (await (await fetch(`${state.baseUrl}/v2/secure-payments/${link.token}`)).json()) as { status: string };
  expect(view.status).toBe("completed");
  return { token: link.token, requestId };
}

test("an overpaid link (12 USDC to the deposit address for 10): the payer is told, the offered refund goes back in one click; another one is kept", async ({
  page,
  state,
  shot,
}) => {
  await activateDestination(state, state.demo.destinationId);
  const wallet = await payeeWallet(page, state);
  const payer = privateKeyToAccount(state.devnet.payer.privateKey).address;
  const { token, requestId } = await overpaidLink(state, "10", "12", "REFUND-OFFER");
  // The offer the wrong-amount policy wrote: a prepared payee refund of the excess, to the sender.
  await expect.poll(async () => (await refundRow(state, requestId)).length, { timeout: 30_000 }).toBe(1);
  const [offered] = await refundRow(state, requestId);
  expect(offered).toMatchObject({ status: "prepared", amount: "2000000", toAddress: payer });

  // The payer, back on the hosted page: paid, and told what happens to the 2 USDC too many.
  await page.goto(`/pay/${token}`);
  await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible();
  const note = page.getByTestId("wrong-amount");
  await expect(note.getByRole("heading")).toHaveText("You sent 2 USDC more than asked");
  await expect(note).toContainText(
    "It went to the merchant, who can send the 2 USDC back to the address it came from in one click: contact them if you need it back.",
  );
  await shootBoth(page, shot, "09-pay-overpaid");

  await signIn(page, `/dashboard/requests/${requestId}`);
  const offer = page.getByTestId("refund-offer");
  await expect(offer).toHaveCount(1);
  await expect(offer.getByRole("heading")).toHaveText("The payer overpaid by 2 USDC");
  await expect(offer.getByRole("button", { name: "Keep it" })).toBeVisible();
  // The offered 2 USDC are held: 10 of the 12 received remain for other refunds.
  await expect(page.getByRole("region", { name: "Refunds" }).getByTestId("refund-totals")).toContainText("Can still be refunded10 USDC");
  await shootBoth(page, shot, "04-offer");

  await offer.getByRole("button", { name: "Refund 2 USDC" }).click();
  const job = page.getByRole("region", { name: "Refund in progress" });
  await expect(job).toContainText("Refund of 2 USDC");
  await connectPayeeWallet(page, wallet.address);
  await expect(job.getByRole("status").filter({ hasText: "2 USDC refunded." })).toBeVisible({ timeout: 60_000 });
  expect(await refundRow(state, requestId)).toMatchObject([{ id: offered!.id, status: "confirmed", amount: "2000000", toAddress: payer }]);
  await expect(page.getByTestId("refund-offer")).toHaveCount(0);
  await expect(page.getByTestId("refund-state")).toHaveText("Partially refunded · 2 USDC");
  await shootBoth(page, shot, "07-offer-refunded");

  // Another offer (written as the policy writes one), kept: the offer goes, the money stays refundable by hand.
  const kept = offerRefund(state, { requestId, to: payer, units: 1_000_000n, reason: "excess" });
  await page.reload();
  await expect(page.getByTestId("refund-offer").getByRole("heading")).toHaveText("The payer overpaid by 1 USDC");
  await page.getByTestId("refund-offer").getByRole("button", { name: "Keep it" }).click();
  await expect(page.getByTestId("refund-offer")).toHaveCount(0);
  const row = page.getByRole("region", { name: "Refunds" }).getByTestId("refund").filter({ hasText: "1 USDC" });
  await expect(row.getByTestId("refund-status")).toHaveText("Kept");
  expect((await refundRow(state, requestId)).find((r) => r.id === kept)?.status).toBe("cancelled");
  await expect(page.getByRole("region", { name: "Refunds" }).getByTestId("refund-totals")).toContainText("Can still be refunded10 USDC");
});

test("a Tron request's refund is sent from TronLink: the approval, then the fee proxy under the refund reference, reported sent", async ({
  page,
  state,
  shot,
}) => {
  const payee = hexToTron("0x15d34aaf54267db7d7c367839aaf71a00a2c6a65");
  const payer = hexToTron("0x90f79bf6eb2c4f870365e785982e1f101e93b906");
  const destinationId = await ensureTronDestination(state, payee);
  try {
    const link = await createLink(state, { requests: [{ amount: "25" }], destinationId, reference: "REFUND-TRON" });
    const requestId = link.requestIds[0]!;
    // No Tron chain runs here: the payment is written as detection writes it.
    await withDb(state, async (db) => {
      await db.query(
        `INSERT INTO "Payment" ("id", "requestId", "accountId", "network", "txHash", "logIndex", "blockNumber", "blockHash", "payer", "payee",
           "tokenAddress", "amount", "feeAmount", "proxyAddress", "blockTime")
         SELECT $2, r."id", r."accountId", r."network", $3, 0, 1, $3, $4, r."payee", r."tokenAddress", 25000000, 0, 'TCUDPYnS9dH3WvFEaE7wN7vnDa51J4R4fd', now()
         FROM "PaymentRequest" r WHERE r."id" = $1`,
        [requestId, `pay_tron_${Date.now()}`, "ab".repeat(32), payer],
      );
      await db.query(`UPDATE "PaymentRequest" SET "status" = 'paid', "amountPaid" = "expectedAmount", "payer" = $2 WHERE "id" = $1`, [
        requestId,
        payer,
      ]);
    });
    await installTronStub(page, { address: payee, hexAddress: `41${tronToHex(payee).slice(2)}`, confirm: "all" });
    await signIn(page, `/dashboard/requests/${requestId}`);
    const panel = page.getByRole("region", { name: "Refunds" });
    await expect(panel.getByLabel("Amount (USDT)")).toHaveValue("25");
    await expect(panel.getByLabel("Refund to")).toHaveValue(payer);
    await panel.getByLabel("Amount (USDT)").fill("5");
    await panel.getByRole("button", { name: "Prepare refund" }).click();
    const job = panel.getByTestId("refund-job");
    // TronLink is asked once, then the transactions start without another click.
    await expect(job.getByTestId("connected-address")).toHaveText(payee);
    await expect(job.getByTestId("refund-progress").locator('[aria-current="step"]')).toContainText("Sent", { timeout: 30_000 });
    const [refund] = await refundRow(state, requestId);
    expect(refund).toMatchObject({ status: "sent", amount: "5000000", toAddress: payer });
    await shootBoth(page, shot, "08-tron-sent");

    const calls = await tronStubCalls(page);
    const built = calls.filter((c) => c.method === "triggerSmartContract").map((c) => c.args);
    expect(built.map((b) => b.functionSelector)).toEqual([
      "approve(address,uint256)",
      "transferFromWithReferenceAndFee(address,address,uint256,bytes,uint256,address)",
    ]);
    for (const b of built) expect(b.issuer).toBe(payee);
    const raw = (built[1]!.options as { rawParameter: string }).rawParameter;
    const { rows } = await withDb(state, (db) =>
      db.query(`SELECT "tokenAddress", "refundReference" FROM "Refund" WHERE "id" = $1`, [refund!.id]),
    );
    const [token, to, amount, reference, fee, feeAddress] = decodeAbiParameters(
      parseAbiParameters("address, address, uint256, bytes, uint256, address"),
      `0x${raw}`,
    );
    expect({ token: token.toLowerCase(), to: to.toLowerCase(), amount, reference, fee, feeAddress }).toEqual({
      token: tronToHex(rows[0].tokenAddress).toLowerCase(),
      to: tronToHex(payer).toLowerCase(),
      amount: 5_000_000n,
      reference: rows[0].refundReference,
      fee: 0n,
      feeAddress: "0x0000000000000000000000000000000000000000",
    });
    // The transfer's transaction ID is the refund's hash (TronGrid's form: 64 hex, no 0x).
    const sent = calls.filter((c) => c.method === "sendRawTransaction").map((c) => c.args.txID as string);
    expect(sent).toHaveLength(2);
    expect(refund!.txHash).toBe(sent[1]);
  } finally {
    await activateDestination(state, state.demo.destinationId);
  }
});
