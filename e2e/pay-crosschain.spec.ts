import { activateDestination, createLink } from "./support/api";
import { connectTestWallet, expect, test } from "./support/fixtures";

/**
 * Pay from another chain on the hosted page: the link is on the devnet ("Sepolia"); the payer
 * picks USDC on the source chain (standing in for Arbitrum One), switches the wallet there,
 * approves and deposits into the devnet bridge; the relayer pays the request on the devnet
 * through ERC20FeeProxy and detection completes the link.
 */
for (const [label, width] of [
  ["desktop", 1280],
  ["phone", 390],
] as const) {
  test(`${label}: a link is paid from another chain through the devnet bridge`, async ({ page, state, wallet, shot }) => {
    await page.setViewportSize({ width, height: 900 });
    await activateDestination(state, state.demo.destinationId);
    const link = await createLink(state, {
      requests: [{ amount: "20" }],
      destinationId: state.demo.destinationId,
      reference: `XCHAIN-${label}`,
    });

    await page.goto(`/pay/${link.token}`);
    await connectTestWallet(page, wallet.address);

    // The same-chain plan is offered first; the other chains below it.
    const picker = page.getByRole("region", { name: "Pay from another chain" });
    await expect(picker).toBeVisible();
    await expect(picker.getByRole("button")).toHaveText([`USDC on ${state.bridge.name}`, `USDT on ${state.bridge.name}`]);
    await shot(`crosschain-01-picker-${label}`);
    await picker.getByRole("button", { name: `USDC on ${state.bridge.name}` }).click();

    // The wallet is on the link's chain: the page asks to move it to the source chain.
    await page.getByRole("button", { name: `Switch to ${state.bridge.name}` }).click();
    expect(wallet.chainId).toBe(state.bridge.chainId);

    // 20 USDC + the bridge's 0.05 minimum fee, spent on the source chain.
    const summary = page.getByTestId("cross-chain-summary");
    await expect(summary).toContainText(`Cross-chain from ${state.bridge.name} with USDC: you send 20.05 USDC (bridge fee included)`);
    await expect(summary).toContainText("The payee receives 20 USDC on Sepolia");
    const steps = page.getByRole("list", { name: "Payment steps" }).getByRole("listitem");
    await expect(steps).toHaveCount(2);
    await expect(steps.nth(0)).toContainText(`Approve USDC on ${state.bridge.name}`);
    await expect(steps.nth(1)).toContainText(`Send 20.05 USDC from ${state.bridge.name}`);
    await expect(picker).toHaveCount(0);
    await shot(`crosschain-02-ready-${label}`);

    await page.getByRole("button", { name: "Approve and pay" }).click();
    // The relayer settles on the devnet; detection completes the link.
    await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible({ timeout: 30_000 });
    // Both transactions went to the source chain: the approval, then the bridge deposit.
    expect(wallet.sent).toHaveLength(2);
    expect(wallet.sent[0]?.data.startsWith("0x095ea7b3")).toBe(true);
    await shot(`crosschain-03-paid-${label}`);

    // The link's public view agrees: completed, paid on the devnet by the relayer's transaction.
    const res = await fetch(`${state.baseUrl}/v2/secure-payments/${link.token}`);
    const body = ((await res.json()) as { checkout: { status: string; txHash: string | null } }).checkout;
    expect(body.status).toBe("completed");
    expect(body.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(wallet.sent.map((s) => s.hash)).not.toContain(body.txHash);
  });
}
