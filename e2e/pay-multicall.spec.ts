import { createDemoSession, type E2eState } from "./support/api";
import { connectTestWallet, expect, test } from "./support/fixtures";

/**
 * A multicall payout link: the creator's wallet pays several payout links in one batch
 * transaction from the hosted page; the children stay links of their own, each completed.
 */
async function post(state: E2eState, path: string, body: unknown): Promise<{ token: string; requestIds?: string[] }> {
  const res = await fetch(`${state.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-client-id": state.demo.clientId },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST ${path} → ${res.status}: ${text}`);
  return JSON.parse(text);
}

for (const viewport of [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
]) {
  test(`${viewport.name}: a multicall of payouts is paid in one batch from the creator's wallet`, async ({ page, state, wallet, shot }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const payout = (amount: string, reference: string) =>
      post(state, "/v2/secure-payments/payouts", {
        recipient: state.devnet.payee,
        creatorWalletAddress: wallet.address,
        network: "sepolia",
        currency: "USDC-sepolia",
        amount,
        reference,
      });
    const children = [await payout("120", "PO-1001"), await payout("80.5", "PO-1002"), await payout("42", "PO-1003")];
    const parent = await post(state, "/v2/secure-payments/multicall-payouts", { childTokens: children.map((c) => c.token) });

    await page.goto(`/pay/${parent.token}`);
    const summary = page.getByRole("region", { name: /Payout/ });
    await expect(summary).toContainText("242.5 USDC");
    await expect(summary).toContainText("Sepolia");
    await expect(page.getByRole("button", { name: "Connect wallet" })).toBeEnabled();
    await shot(`multicall-${viewport.name}-01-pending`);

    await connectTestWallet(page, wallet.address);
    const pay = page.getByRole("button", { name: /pay/i }).last();
    await expect(pay).toBeEnabled();
    await shot(`multicall-${viewport.name}-02-ready`);
    await pay.click();
    await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible({ timeout: 30_000 });
    await shot(`multicall-${viewport.name}-03-paid`);

    // One batch call paid every child; each child link and the parent are completed.
    expect(wallet.sent.at(-1)?.data.startsWith("0x92cddb91")).toBe(true);
    for (const c of children) {
      const view = await (await fetch(`${state.baseUrl}/v2/secure-payments/${c.token}`)).json();
      expect(view.status).toBe("completed");
    }
    const view = await (await fetch(`${state.baseUrl}/v2/secure-payments/${parent.token}`)).json();
    expect(view).toMatchObject({ paymentType: "multicall", status: "completed", canExecute: false, totals: { childCount: 3 } });
    // Paid children are no longer executable: already_paid, nothing to recover.
    expect(view.children.map((c: { blockReason: string }) => c.blockReason)).toEqual(["already_paid", "already_paid", "already_paid"]);

    // The integrator's links list names the multicall and shows it paid.
    await page.context().addCookies([{ name: "session_token", value: await createDemoSession(state), url: state.baseUrl }]);
    await page.goto("/dashboard/links");
    const row = page.getByTestId("link-row").filter({ hasText: "Multicall of 3 payouts" }).first(); // newest first
    await expect(row).toBeVisible();
    await expect(row).toContainText("Paid");
    await shot(`multicall-${viewport.name}-04-dashboard-links`);
  });
}
