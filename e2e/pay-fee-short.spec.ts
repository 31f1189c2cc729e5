/**
 * Issue #24 item 1 in the browser: a link with a 5 % platform fee is paid through the
 * ERC20FeeProxy with fee 0 (a payer's own calldata). The hosted page and the dashboard show the
 * link as partly paid with the fee missing and where it goes; the page's pay button asks for the
 * missing fee alone, and paying it completes the link. Screenshots at 1280 and 390 px.
 */
import { createPublicClient, createWalletClient, erc20Abi, http, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { activateDestination, createLink, type E2eState, withDb } from "./support/api";
import { connectTestWallet, expect, test } from "./support/fixtures";

const DEMO = { email: "demo@duebill.local", password: "duebill-demo" };
/** Anvil's dev account 3: the platform's fee address in this journey. */
const FEE_ADDRESS = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const FEE_CONFIG_ID = "fee_e2e_fee_short";
const feeProxyAbi = parseAbi([
  "function transferFromWithReferenceAndFee(address _tokenAddress, address _to, uint256 _amount, bytes _paymentReference, uint256 _feeAmount, address _feeAddress)",
]);

/** The demo account charges 5 % (payer-borne) on incoming links, to FEE_ADDRESS — for this journey only. */
async function setFee(state: E2eState, on: boolean) {
  await withDb(state, async (db) => {
    await db.query(`DELETE FROM "FeeConfig" WHERE "id" = $1`, [FEE_CONFIG_ID]);
    if (on)
      await db.query(
        `INSERT INTO "FeeConfig" ("id", "accountId", "flow", "percentageBps", "feeBearer", "evmAddress", "active")
         VALUES ($1, $2, 'get_paid', 500, 'payer', $3, true)`,
        [FEE_CONFIG_ID, state.demo.accountId, FEE_ADDRESS],
      );
  });
}

/** The payer skips the fee (or sends `fee`): approve, then the fee proxy with the whole amount. */
async function payWithoutFee(state: E2eState, requestId: string, amount: bigint, fee = 0n) {
  const reference = await withDb(state, async (db) => {
    const r = await db.query(`SELECT "paymentReference" FROM "PaymentRequest" WHERE "id" = $1`, [requestId]);
    return r.rows[0].paymentReference as `0x${string}`;
  });
  const account = privateKeyToAccount(state.devnet.payer.privateKey);
  const wallet = createWalletClient({ account, transport: http(state.devnet.rpcUrl) });
  const pub = createPublicClient({ transport: http(state.devnet.rpcUrl) });
  const usdc = state.devnet.tokens.USDC!;
  const approve = await wallet.writeContract({
    chain: null,
    address: usdc,
    abi: erc20Abi,
    functionName: "approve",
    args: [state.devnet.erc20FeeProxy, amount + fee],
  });
  await pub.waitForTransactionReceipt({ hash: approve });
  const pay = await wallet.writeContract({
    chain: null,
    address: state.devnet.erc20FeeProxy,
    abi: feeProxyAbi,
    functionName: "transferFromWithReferenceAndFee",
    args: [usdc, state.devnet.payee, amount, reference, fee, FEE_ADDRESS],
  });
  await pub.waitForTransactionReceipt({ hash: pay });
}

test("a payment without its fee: the page and dashboard show the fee missing; paying it completes the link", async ({
  page,
  state,
  wallet,
  shot,
}) => {
  await activateDestination(state, state.demo.destinationId);
  await setFee(state, true);
  let link: Awaited<ReturnType<typeof createLink>>;
  try {
    link = await createLink(state, { requests: [{ amount: "100" }], destinationId: state.demo.destinationId, reference: "INV-FEE-24" });
  } finally {
    await setFee(state, false);
  }
  const requestId = link.requestIds[0]!;
  await payWithoutFee(state, requestId, 100_000_000n);

  // Detection records the payment but not the link: the fee is short.
  await expect
    .poll(
      async () => {
        const res = await fetch(`${state.baseUrl}/v2/secure-payments/${link.token}`);
        return ((await res.json()) as { subStatus?: string }).subStatus;
      },
      { timeout: 60_000 },
    )
    .toBe("fee_short");

  const summary = page.getByRole("region", { name: "Payment request" });
  for (const vp of [
    { name: "desktop", width: 1280, height: 900 },
    { name: "phone", width: 390, height: 844 },
  ]) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    await page.goto(`/pay/${link.token}`);
    await expect(page).toHaveTitle(/Pay 5 USDC/);
    await expect(summary).toContainText("Partly paid · fee missing");
    const notice = page.getByTestId("fee-short");
    await expect(notice).toContainText("A payment arrived without its full fee.");
    await expect(notice).toContainText("5 USDC");
    await expect(notice).toContainText("5 USDC fee to 0x90F7");
    // A deposit address would forward the whole fee again, and a bridge one payment: the missing fee is paid with a wallet.
    await expect(page.getByRole("heading", { name: "Pay by transfer or QR code" })).toHaveCount(0);
    await expect(page.getByText("Pay from another chain")).toHaveCount(0);
    await shot(`fee-short-${vp.name}-01-page`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }

  // The dashboard: the request and the link list show why the link is not paid.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/dashboard/requests/${requestId}`);
  await expect(page).toHaveURL(/\/sign-in/);
  const email = page.getByRole("region", { name: "With email" });
  await email.getByLabel("Email").fill(DEMO.email);
  await email.getByLabel("Password").fill(DEMO.password);
  await email.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/requests/${requestId}$`));
  await expect(page.getByTestId("request-status")).toHaveText("Partially paid · fee missing");
  await expect(page.getByTestId("fee-short")).toContainText(`5 USDC to ${FEE_ADDRESS}`);
  for (const vp of [
    { name: "desktop", width: 1280, height: 900 },
    { name: "phone", width: 390, height: 844 },
  ]) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    await page.goto(`/dashboard/requests/${requestId}`);
    await expect(page.getByTestId("fee-short")).toBeVisible();
    await shot(`fee-short-${vp.name}-02-dashboard-request`);
    await page.goto("/dashboard/links");
    const row = page.getByTestId("link-row").filter({ hasText: "INV-FEE-24" });
    await expect(row).toContainText("Partly paid · fee missing");
    await shot(`fee-short-${vp.name}-03-dashboard-links`);
  }

  // The payer pays the missing fee from the page: one fee-proxy call with amount 0 and the 5 USDC fee.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/pay/${link.token}`);
  await connectTestWallet(page, wallet.address);
  const steps = page.getByRole("list", { name: "Payment steps" }).getByRole("listitem");
  await expect(steps.last()).toContainText("Pay the missing fee (5 USDC)");
  await shot("fee-short-desktop-04-ready");
  await page.getByRole("button", { name: /pay/i }).click();
  await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible({ timeout: 60_000 });
  await expect(summary).toContainText("Status: Paid"); // the badge, after the server refresh
  await expect(page.getByTestId("fee-short")).toHaveCount(0);
  await shot("fee-short-desktop-05-paid");
  const sent = wallet.sent.at(-1)!;
  expect(sent.to.toLowerCase()).toBe(state.devnet.erc20FeeProxy.toLowerCase());
  const res = await fetch(`${state.baseUrl}/v2/secure-payments/${link.token}`);
  expect(await res.json()).toMatchObject({ status: "completed", subStatus: null, missingFees: [] });
});

test("a batch link whose first payment came without its fee: the page asks that fee alone, to the fee address", async ({
  page,
  state,
  wallet,
  shot,
}) => {
  await activateDestination(state, state.demo.destinationId);
  await setFee(state, true);
  let link: Awaited<ReturnType<typeof createLink>>;
  try {
    link = await createLink(state, {
      requests: [{ amount: "50" }, { amount: "30" }],
      destinationId: state.demo.destinationId,
      reference: "INV-FEE-BATCH-24",
    });
  } finally {
    await setFee(state, false);
  }
  // The first payment's 50 without its 2.5 fee; the second's 30 with its 1.5 fee.
  await payWithoutFee(state, link.requestIds[0]!, 50_000_000n);
  await payWithoutFee(state, link.requestIds[1]!, 30_000_000n, 1_500_000n);
  await expect
    .poll(
      async () => {
        const res = await fetch(`${state.baseUrl}/v2/secure-payments/${link.token}`);
        const body = (await res.json()) as { subStatus?: string; checkout?: { totalAmount?: string } };
        return `${body.subStatus} ${body.checkout?.totalAmount}`;
      },
      { timeout: 60_000 },
    )
    .toBe("fee_short 2.5");

  const summary = page.getByRole("region", { name: "Payment request" });
  for (const vp of [
    { name: "desktop", width: 1280, height: 900 },
    { name: "phone", width: 390, height: 844 },
  ]) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    await page.goto(`/pay/${link.token}`);
    await expect(page).toHaveTitle(/Pay 2.5 USDC/);
    await expect(summary).toContainText("Partly paid · fee missing");
    await expect(page.getByTestId("fee-short")).toContainText("2.5 USDC fee to 0x90F7");
    await expect(page.getByTestId("fee-only")).toBeVisible();
    // Who receives the next transaction: the fee address alone, not the payee.
    await expect(summary.getByText("Fee to", { exact: true })).toBeVisible();
    const list = page.getByTestId("payments-list").getByRole("listitem");
    await expect(list.nth(0)).toContainText("Fee 2.5 USDC");
    await expect(list.nth(0)).toContainText("Fee missing");
    await expect(list.nth(1)).toContainText("Paid");
    await shot(`fee-short-batch-${vp.name}-01-page`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  }

  await page.setViewportSize({ width: 1280, height: 900 });
  await connectTestWallet(page, wallet.address);
  const steps = page.getByRole("list", { name: "Payment steps" }).getByRole("listitem");
  await expect(steps.last()).toContainText("Pay the missing fee (2.5 USDC)");
  await shot("fee-short-batch-desktop-02-ready");
  await page.getByRole("button", { name: /pay/i }).click();
  await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible({ timeout: 60_000 });
  // One fee-proxy call (amount 0, the 2.5 fee), not a batch.
  expect(wallet.sent.at(-1)!.to.toLowerCase()).toBe(state.devnet.erc20FeeProxy.toLowerCase());
  await shot("fee-short-batch-desktop-03-paid");
  const res = await fetch(`${state.baseUrl}/v2/secure-payments/${link.token}`);
  expect(await res.json()).toMatchObject({ status: "completed", subStatus: null, missingFees: [] });
});
