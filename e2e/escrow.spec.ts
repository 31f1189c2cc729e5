/**
 * Issue 31 (escrow), as a payer and a merchant see it: a link paid by authorization (the payer's EIP-3009
 * signature, submitted through the API by Duebill's relayer) shows "Authorized — not yet charged" on the
 * hosted page; the merchant's dashboard shows the capture deadline and captures 60, voids the rest, then
 * refunds 10 with the payee's wallet signing (no gas) — at 1280 and 390 px, screenshots of each state.
 */
import type { Page } from "@playwright/test";
import { createPublicClient, erc20Abi, type Hex, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { devAccount } from "@/scripts/devnet";
import { activateDestination, createLink, type E2eState } from "./support/api";
import { expect, test } from "./support/fixtures";
import { TestWallet } from "./support/test-wallet";

const DEMO = { email: "demo@duebill.local", password: "duebill-demo" };
const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function api(state: E2eState, path: string, body: unknown) {
  const res = await fetch(`${state.baseUrl}${path}`, {
    method: "POST",
    headers: { "x-api-key": state.demo.apiKey, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  return { status: res.status, json };
}

/** The payer authorizes the link's request through the API: it signs the returned typed data (no transaction). */
async function authorize(state: E2eState, requestId: string) {
  const prepared = await api(state, "/v2/commerce-payments/authorize/calldata", { requestId, payerAddress: state.devnet.payer.address });
  expect(prepared.status, JSON.stringify(prepared.json)).toBe(201);
  const td = prepared.json.typedData;
  const m = td.message;
  const signature = await privateKeyToAccount(state.devnet.payer.privateKey).signTypedData({
    domain: td.domain,
    types: td.types,
    primaryType: "ReceiveWithAuthorization",
    message: { ...m, value: BigInt(m.value), validAfter: BigInt(m.validAfter), validBefore: BigInt(m.validBefore) },
  });
  const done = await api(state, `/v2/commerce-payments/${requestId}/authorize`, { signature });
  expect(done.status, JSON.stringify(done.json)).toBe(200);
}

async function shootBoth(page: Page, shot: (n: string) => Promise<void>, name: string) {
  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${vp.width} px`).toBeLessThanOrEqual(0);
    await shot(`escrow-${vp.name}-${name}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("authorized link on the hosted page; capture, void and refund from the dashboard", async ({ page, state, shot }) => {
  test.setTimeout(180_000);
  const payee = devAccount(2);
  const wallet = new TestWallet({
    rpcUrl: state.devnet.rpcUrl,
    chainId: state.devnet.chainId,
    privateKey: payee.privateKey,
    startChainId: 1,
  });
  await wallet.install(page);
  await activateDestination(state, state.demo.destinationId);
  const link = await createLink(state, { requests: [{ amount: "100" }], destinationId: state.demo.destinationId, reference: "ESCROW-1" });
  const requestId = link.requestIds[0]!;
  await authorize(state, requestId);

  await page.goto(`/pay/${link.token}`);
  await expect(page.getByTestId("authorized-panel")).toContainText("Authorized — not yet charged");
  // The summary's badge agrees with the panel (it read "Awaiting payment" before).
  await expect(page.getByText("Status: Authorized · not charged")).toBeVisible();
  await expect(page.getByTestId("authorized-panel")).toContainText("100 USDC");
  await shootBoth(page, shot, "hosted-authorized");

  await page.goto(`/sign-in?next=${encodeURIComponent(`/dashboard/requests/${requestId}`)}`);
  const card = page.getByRole("region", { name: "With email" });
  await card.getByLabel("Email").fill(DEMO.email);
  await card.getByLabel("Password").fill(DEMO.password);
  await card.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("escrow-status")).toHaveText("Authorized — not yet charged");
  await expect(page.getByTestId("escrow-deadline")).toContainText("UTC");
  // One refund path: through the escrow (the request's own Refunds panel would not count against captures).
  await expect(page.getByRole("region", { name: "Refunds" })).toHaveCount(0);
  await shootBoth(page, shot, "dashboard-authorized");

  const pub = createPublicClient({ transport: http(state.devnet.rpcUrl) });
  const usdc = (who: Hex) =>
    pub.readContract({ address: state.devnet.tokens.USDC!, abi: erc20Abi, functionName: "balanceOf", args: [who] });
  const payeeBefore = await usdc(payee.address);
  await page.getByLabel(/Amount to capture/).fill("60");
  await page.getByRole("button", { name: "Capture" }).click();
  await expect(page.getByTestId("escrow-captured")).toHaveText("60 USDC");
  await expect(page.getByTestId("escrow-capturable")).toHaveText("40 USDC");
  expect(await usdc(payee.address)).toBe(payeeBefore + 60_000_000n);
  await page.getByRole("button", { name: "Void the rest" }).click();
  await expect(page.getByTestId("escrow-voided")).toHaveText("40 USDC");
  await expect(page.getByTestId("escrow-status")).toHaveText("Captured");
  await shootBoth(page, shot, "dashboard-captured");

  await page.getByRole("button", { name: "Connect the payee's wallet" }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Duebill Test Wallet/ })
    .click();
  await page.getByLabel(/Amount to refund/).fill("10");
  await page.getByRole("button", { name: "Sign and refund" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Refunded 10 USDC" })).toBeVisible({ timeout: 30_000 });
  await page.reload();
  await expect(page.getByTestId("escrow-refunded")).toHaveText("10 USDC");
  expect(await usdc(payee.address)).toBe(payeeBefore + 50_000_000n);
  // The payee signed only: no transaction from its wallet.
  expect(wallet.sent).toHaveLength(0);
  await shootBoth(page, shot, "dashboard-refunded");
});
