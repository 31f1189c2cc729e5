/**
 * A merchant's first day, without code (issue 27): a new email account sets where it gets paid from
 * Settings with its wallet (RainbowKit connects the injected test wallet, which signs the
 * destination's signing data), follows the overview's checklist, creates a link from the
 * dashboard, a payer pays it on the hosted page, and the overview counts it as money in. A payout
 * the same account makes (through the API with its key, paid on the devnet from the merchant's
 * wallet) is money out: in "Paid out", never in "Received"; the payments list and the API's
 * search tell the two apart.
 */
import type { Page } from "@playwright/test";
import { createWalletClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { settledAxe } from "./support/axe";
import { anvil, connectTestWallet, expect, test } from "./support/fixtures";
import { startReceiver } from "./support/receiver";
import { TestWallet } from "./support/test-wallet";

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
const SUPPLIER = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";

/** Both widths: no sideways scroll, no WCAG 2 A/AA violation (axe-core), and a screenshot of each. */
async function shootBoth(page: Page, shot: (n: string) => Promise<void>, name: string): Promise<void> {
  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${vp.width} px`).toBeLessThanOrEqual(0);
    const axe = await settledAxe(page, ["wcag2a", "wcag2aa"]);
    expect(
      axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      `${name} at ${vp.width} px`,
    ).toEqual([]);
    await shot(`first-day-${vp.name}-${name}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a new email merchant sets its destination with its wallet, gets paid (money in) and pays out (money out, not received)", async ({
  browser,
  page,
  state,
  shot,
}) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  // The merchant's own wallet: a fresh key (the demo payee's wallet belongs to the demo account).
  const merchantKey = generatePrivateKey();
  const merchant = new TestWallet({ rpcUrl: state.devnet.rpcUrl, chainId: state.devnet.chainId, privateKey: merchantKey, startChainId: 1 });
  await merchant.install(page);
  const scripts: string[] = [];
  page.on("response", async (r) => {
    if (r.url().endsWith(".js")) scripts.push(await r.text().catch(() => ""));
  });

  // Registers with email: the overview greets with the checklist, nothing done.
  const email = `first-day-${Date.now()}@e2e.duebill.test`;
  await page.goto("/register");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("first day password");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(/\/dashboard$/);
  const checklist = page.getByTestId("first-run");
  await expect(checklist).toContainText("0 of 4 done");
  await expect(page.getByTestId("totals-incoming")).toContainText("Nothing received yet.");
  await shootBoth(page, shot, "01-overview-checklist");

  // The checklist leads to Settings; no wallet code has loaded yet.
  await checklist.getByRole("link", { name: /Connect a wallet/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings$/);
  await expect(page.getByTestId("no-destination")).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(scripts.filter((js) => js.includes("WagmiProvider"))).toHaveLength(0);
  await shootBoth(page, shot, "02-settings-before");

  // Connect (RainbowKit lists the injected wallet), sign the signing data, saved.
  const panel = page.getByRole("region", { name: "Where you get paid" });
  await panel.getByLabel("Receive in").selectOption("USDC-sepolia");
  await panel.getByRole("button", { name: "Connect wallet" }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Duebill Test Wallet/ })
    .click();
  await expect(panel.getByTestId("connected-address")).toHaveText(merchant.address);
  await shootBoth(page, shot, "02b-settings-connected");
  // The wallet refuses once: the page says so and nothing is saved.
  merchant.rejectNext("eth_signTypedData_v4");
  await panel.getByRole("button", { name: "Sign and save" }).click();
  await expect(panel.getByRole("alert")).toContainText("rejected");
  await panel.getByRole("button", { name: "Sign and save" }).click();
  await expect(panel.getByTestId("active-destination")).toContainText("Receiving USDC on Sepolia", { timeout: 20_000 });
  await expect(panel.getByTestId("active-destination")).toContainText(merchant.address.slice(2, 6));
  expect(merchant.chainId).toBe(state.devnet.chainId); // switched to the currency's chain to sign
  expect(scripts.some((js) => js.includes("WagmiProvider"))).toBe(true);
  // Deactivating asks first, naming what stops working; "Keep it" keeps it.
  await panel.getByRole("button", { name: "Deactivate" }).click();
  const confirm = page.getByRole("dialog", { name: "Deactivate this destination?" });
  await expect(confirm).toContainText("New payment links cannot be created");
  await confirm.getByRole("button", { name: "Keep it" }).click();
  await page.reload();
  await expect(panel.getByTestId("active-destination")).toContainText(merchant.address.slice(2, 6));
  await shootBoth(page, shot, "03-settings-after");

  // A link from the dashboard.
  await page.goto("/dashboard");
  await expect(page.getByTestId("first-run")).toContainText("1 of 4 done");
  await page
    .getByTestId("first-run")
    .getByRole("link", { name: /New link/ })
    .click();
  await page.getByLabel(/^Amount/).fill("20");
  await page.getByLabel("Reference (optional)").fill("FIRST-DAY-1");
  await page.getByRole("button", { name: "Create payment link" }).click();
  const created = page.getByTestId("created-link");
  await expect(created).toContainText("/pay/");
  const token = ((await created.textContent()) ?? "").split("/pay/")[1]!.trim();

  // A payer pays it on the hosted page with their own injected wallet.
  const payerContext = await browser.newContext({ baseURL: state.baseUrl });
  try {
    const payerPage = await payerContext.newPage();
    const payerWallet = new TestWallet({
      rpcUrl: state.devnet.rpcUrl,
      chainId: state.devnet.chainId,
      privateKey: state.devnet.payer.privateKey,
      startChainId: state.devnet.chainId,
    });
    await payerWallet.install(payerPage);
    await payerPage.goto(`/pay/${token}`);
    await connectTestWallet(payerPage, payerWallet.address);
    await payerPage.getByRole("button", { name: /^(Approve and pay|Pay\b)/ }).click();
    await expect(payerPage.getByRole("heading", { name: "Payment complete" })).toBeVisible({ timeout: 60_000 });
  } finally {
    await payerContext.close();
  }

  // The overview: money in, nothing out.
  const received = page.getByTestId("totals-incoming");
  await expect
    .poll(
      async () => {
        await page.goto("/dashboard");
        return received.textContent();
      },
      { timeout: 30_000 },
    )
    .toContain("20");
  await expect(received).toContainText("USDC");
  await expect(page.getByTestId("totals-outgoing")).toContainText("No payouts yet.");

  // The rest of the checklist: an API key, a client ID and a webhook, from the dashboard.
  await page
    .getByTestId("first-run")
    .getByRole("link", { name: /New key/ })
    .click();
  const keys = page.getByRole("region", { name: "API keys" });
  await keys.getByLabel("Name").fill("first-day server");
  await keys.getByRole("button", { name: "Create API key" }).click();
  const apiKey = ((await page.getByTestId("new-api-key").textContent()) ?? "").trim();
  expect(apiKey.length).toBeGreaterThan(20);
  const clients = page.getByRole("region", { name: "Client IDs" });
  await clients.getByLabel("Label").fill("Shop");
  await clients.getByRole("button", { name: "Create client ID" }).click();
  await expect(clients).toContainText("Shop");
  const receiver = await startReceiver();
  try {
    await page.goto("/dashboard/webhooks");
    const register = page.getByRole("region", { name: "Register a webhook" });
    await register.getByLabel(/Endpoint URL/).fill(receiver.url);
    await register.getByRole("button", { name: "Register webhook" }).click();
    await expect(page.getByTestId("webhook-secret")).toBeVisible();
  } finally {
    await receiver.close();
  }

  // A payout to a supplier through the API with the key, paid on the devnet from the merchant's wallet.
  const res = await fetch(`${state.baseUrl}/v2/payouts`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": apiKey },
    body: JSON.stringify({
      payee: SUPPLIER,
      amount: "5",
      invoiceCurrency: "USDC-sepolia",
      paymentCurrency: "USDC-sepolia",
      payerWallet: merchant.address,
      reference: "PAYOUT-1",
    }),
  });
  const payout = (await res.json()) as { requestId: string; transactions: { to: `0x${string}`; data: `0x${string}` }[] };
  expect(res.status, JSON.stringify(payout)).toBe(201);
  await anvil(state, "anvil_setBalance", [merchant.address, "0x8AC7230489E80000"]); // 10 ETH for gas
  const merchantClient = createWalletClient({ account: privateKeyToAccount(merchantKey), transport: http(state.devnet.rpcUrl) });
  for (const tx of payout.transactions) await merchantClient.sendTransaction({ chain: null, to: tx.to, data: tx.data });

  // Money out: in "Paid out", never in "Received"; the checklist is gone, all four done.
  const paidOut = page.getByTestId("totals-outgoing");
  await expect
    .poll(
      async () => {
        await page.goto("/dashboard");
        return paidOut.textContent();
      },
      { timeout: 30_000 },
    )
    .toContain("5");
  await expect(paidOut).toContainText("USDC");
  await expect(received.locator("tbody tr")).toHaveCount(1);
  await expect(received.locator("tbody tr")).toContainText("20");
  await expect(received).not.toContainText("25");
  await expect(page.getByTestId("first-run")).toHaveCount(0);
  const recent = page.getByTestId("recent-payments").getByRole("listitem");
  await expect(recent.filter({ hasText: "PAYOUT-1" })).toContainText("Out");
  await expect(recent.filter({ hasText: "FIRST-DAY-1" })).toContainText("In");
  await shootBoth(page, shot, "04-overview-in-out");

  // The payments list: a direction on every row, and a filter.
  await page.getByRole("link", { name: "View all" }).click();
  const rows = page.getByTestId("payments").getByRole("listitem");
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: "PAYOUT-1" })).toContainText(`to ${SUPPLIER}`);
  await shootBoth(page, shot, "05-payments");
  await page.getByLabel("Direction").selectOption("incoming");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/direction=incoming/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("FIRST-DAY-1");
  await expect(rows.first().getByTestId("direction")).toHaveText(/In/);
  await shootBoth(page, shot, "06-payments-incoming");
  await page.goto("/dashboard/payments?direction=sideways");
  await expect(page.getByRole("alert").filter({ hasText: "Direction" })).toHaveText("Direction must be incoming or outgoing");

  // The API's search, with the merchant's key.
  const search = async (q: string) => {
    const r = await fetch(`${state.baseUrl}/v2/payments${q}`, { headers: { "x-api-key": apiKey } });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> & { payments?: { request: { reference: string } }[] } };
  };
  const outgoing = await search("?direction=outgoing");
  expect(outgoing.body.payments?.map((p) => p.request.reference)).toEqual(["PAYOUT-1"]);
  const bad = await search("?direction=sideways");
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.body)).toContain('"field":"direction"');

  expect(errors, errors.join("\n")).toEqual([]);
});
