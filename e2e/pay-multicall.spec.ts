import { createDemoSession, type E2eState } from "./support/api";
import { connectTestWallet, ensureTestWalletConnected, expect, test } from "./support/fixtures";

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

/** Anvil's well-known account 3: a second payout recipient. */
const SECOND_RECIPIENT = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

for (const viewport of [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
]) {
  test(`${viewport.name}: after a child was paid alone, the multicall page asks for the rest, marks the paid child and lists every recipient`, async ({
    page,
    state,
    wallet,
    shot,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const payout = (amount: string, recipient: string, reference: string) =>
      post(state, "/v2/secure-payments/payouts", {
        recipient,
        creatorWalletAddress: wallet.address,
        network: "sepolia",
        currency: "USDC-sepolia",
        amount,
        reference,
      });
    const children = [
      await payout("11.11", state.devnet.payee, "PO-2001"),
      await payout("33.33", SECOND_RECIPIENT, "PO-2002"),
      await payout("22.22", state.devnet.payee, "PO-2003"),
    ];
    const parent = await post(state, "/v2/secure-payments/multicall-payouts", { childTokens: children.map((c) => c.token) });

    // The first child is paid on its own page.
    await page.goto(`/pay/${children[0]!.token}`);
    await connectTestWallet(page, wallet.address);
    await page.getByRole("button", { name: /pay/i }).last().click();
    await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible({ timeout: 30_000 });
    const api = await (await fetch(`${state.baseUrl}/v2/secure-payments/${parent.token}`)).json();
    expect(api.status).toBe("partially_settled");

    await page.goto(`/pay/${parent.token}`);
    await expect(page).toHaveTitle(/Pay 55\.55 USDC/);
    const summary = page.getByRole("region", { name: /Payout/ });
    await expect(summary).toContainText("55.55 USDC");
    await expect(summary).not.toContainText("66.66");
    await expect(summary).toContainText("Partly paid");
    await expect(summary.getByTestId("already-paid")).toHaveText("Still to pay · 11.11 USDC already paid (1 of 3 payments)");
    // Every recipient of the transaction, not only the first.
    const recipients = summary.getByRole("list", { name: "Recipients" });
    await expect(recipients.getByRole("listitem")).toHaveCount(2);
    await expect(recipients).toContainText(SECOND_RECIPIENT.slice(2, 6));
    const rows = summary.getByTestId("payments-list").getByRole("listitem");
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toHaveAttribute("data-state", "paid");
    await expect(rows.nth(0)).toContainText("Paid");
    await expect(rows.nth(1)).toHaveAttribute("data-state", "due");
    await expect(rows.nth(1)).toContainText("33.33 USDC");
    await expect(rows.nth(2)).toContainText("22.22 USDC");
    await shot(`multicall-${viewport.name}-05-partly-paid`);

    await ensureTestWalletConnected(page, wallet.address);
    const pay = page.getByRole("button", { name: /pay/i }).last();
    await expect(pay).toBeEnabled();
    // The wallet's step says what the transaction pays: the rest, not the link's first total.
    await expect(page.getByText("Pay 55.55 USDC").first()).toBeVisible();
    await shot(`multicall-${viewport.name}-06-partly-paid-ready`);
    await pay.click();
    await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible({ timeout: 30_000 });
    // Paid in full: the headline is the link's whole amount again, every payment marked paid.
    await expect(summary.locator("p").first()).toHaveText("66.66 USDC");
    await expect(summary.getByTestId("payments-list").locator('[data-state="paid"]')).toHaveCount(3);
    await shot(`multicall-${viewport.name}-07-rest-paid`);
    const done = await (await fetch(`${state.baseUrl}/v2/secure-payments/${parent.token}`)).json();
    expect(done.status).toBe("completed");
  });
}
