import { hexToTron, tronToHex } from "@/lib/chain/address";
import type { PaymentPagePlan } from "@/lib/secure-payments/page-types";
import { createLink, ensureTronDestination } from "./support/api";
import { expect, test } from "./support/fixtures";
import { installTronStub, rejectNextTronSignature, tronStubCalls } from "./support/tron-stub";

const PAYER = hexToTron("0x90f79bf6eb2c4f870365e785982e1f101e93b906");
const PAYEE = hexToTron("0x15d34aaf54267db7d7c367839aaf71a00a2c6a65");

/**
 * No Tron chain runs locally, so the payment is never mined: the journey checks that TronLink
 * (a recording stub) is asked for the plan's transactions, in order and signed, and that the
 * page shows them submitted.
 */
test("a Tron link connects TronLink and sends the approval, then the payment", async ({ page, state, shot }) => {
  const destinationId = await ensureTronDestination(state, PAYEE);
  const link = await createLink(state, { requests: [{ amount: "25" }], destinationId, reference: "Tron order 7" });
  await installTronStub(page, { address: PAYER, hexAddress: `41${tronToHex(PAYER).slice(2)}`, confirm: "approvals" });

  await page.goto(`/pay/${link.token}`);
  const summary = page.getByRole("region", { name: "Payment request" });
  await expect(summary).toContainText("25 USDT");
  await expect(summary).toContainText("Tron");
  await expect(summary).toContainText(PAYEE);
  const connect = page.getByRole("button", { name: "Connect TronLink" });
  await expect(connect).toBeEnabled();
  await shot("tron-01-pending");

  await connect.click();
  await expect(page.getByTestId("connected-address")).toHaveText(PAYER);
  const steps = page.getByRole("list", { name: "Payment steps" }).getByRole("listitem");
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText("Approve USDT");
  await expect(steps.nth(1)).toContainText("Pay 25 USDT");
  await shot("tron-02-ready");

  // Declined in TronLink first: friendly message, then retry.
  await rejectNextTronSignature(page);
  await page.getByRole("button", { name: "Approve and pay" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("You rejected the request in your wallet.");
  await shot("tron-03-rejected");

  await page.getByRole("button", { name: "Try again" }).click();
  await expect(steps.nth(0)).toHaveAttribute("data-status", "confirmed", { timeout: 15_000 });
  await expect(steps.nth(1)).toHaveAttribute("data-status", "submitted", { timeout: 15_000 });
  await expect(steps.nth(1)).toContainText("View transaction");
  await expect(page.getByRole("status").filter({ hasText: "Payment submitted" })).toBeVisible();
  await shot("tron-04-payment-submitted");

  // What TronLink was asked for matches the server's plan, call for call.
  const plan = (await (await fetch(`${state.baseUrl}/v2/secure-payments/${link.token}/pay?wallet=${PAYER}`)).json()) as PaymentPagePlan;
  expect(plan.metadata.needsApproval).toBe(true);
  const [approveTx, payTx] = plan.transactions;
  const calls = await tronStubCalls(page);
  expect(calls.filter((c) => c.method === "request").map((c) => c.args.method)).toEqual(["tron_requestAccounts"]);
  const built = calls.filter((c) => c.method === "triggerSmartContract").map((c) => c.args);
  // The declined attempt built the approval once; the retry built it again, then the payment.
  expect(built).toHaveLength(3);
  for (const b of built) expect(b.issuer).toBe(PAYER);
  expect(built[1]).toMatchObject({
    contract: approveTx?.to,
    functionSelector: "approve(address,uint256)",
    options: { rawParameter: approveTx?.data.slice(10), callValue: 0 },
  });
  expect(built[2]).toMatchObject({
    contract: payTx?.to,
    functionSelector: "transferFromWithReferenceAndFee(address,address,uint256,bytes,uint256,address)",
    options: { rawParameter: payTx?.data.slice(10), callValue: 0 },
  });
  expect(calls.filter((c) => c.method === "sign")).toHaveLength(3);
  const sent = calls.filter((c) => c.method === "sendRawTransaction").map((c) => c.args);
  expect(sent).toHaveLength(2);
  for (const s of sent) expect(s.signed).toBe(true);
});

test("without TronLink the page says how to get it", async ({ page, state, shot }) => {
  const destinationId = await ensureTronDestination(state, PAYEE);
  const link = await createLink(state, { requests: [{ amount: "3" }], destinationId });
  await page.goto(`/pay/${link.token}`);
  await expect(page.getByText("TronLink was not found in this browser.")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("link", { name: "Install TronLink" })).toHaveAttribute("href", "https://www.tronlink.org/");
  await shot("tron-05-no-tronlink");
});
