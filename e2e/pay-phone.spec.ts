/**
 * Which way to pay comes first (issue 27, item 4). A browser without a wallet (a phone's) leads
 * with the QR code and deposit address — e2e/pay-transfer.spec.ts pays that way at 1280 and 390 px.
 * Here the other side: with an injected wallet (EIP-6963, as an extension or a wallet app's own
 * browser announces it), the wallet panel stays first at both widths and the transfer panel waits
 * for a click, its code loaded only then; the merchant stays the payee, never an address to send to.
 */
import { createWalletClient, erc20Abi, http, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { activateDestination, createLink } from "./support/api";
import { expect, test } from "./support/fixtures";

for (const viewport of [
  { name: "desktop", width: 1280, height: 900 },
  { name: "mobile", width: 390, height: 844 },
]) {
  test(`${viewport.name} with a browser wallet: the wallet panel leads, the transfer panel waits for a click`, async ({
    page,
    state,
    wallet,
    shot,
  }) => {
    expect(wallet.address).toBeTruthy();
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await activateDestination(state, state.demo.destinationId);
    const link = await createLink(state, {
      requests: [{ amount: "7.25" }],
      destinationId: state.demo.destinationId,
      reference: "INV-PHONE-1",
    });
    const js: string[] = [];
    page.on("request", (req) => {
      if (/\/_next\/static\/.*\.js$/.test(req.url())) js.push(req.url());
    });
    await page.goto(`/pay/${link.token}`);

    const summary = page.getByRole("region", { name: "Payment request" });
    await expect(summary.getByText("Payee", { exact: true })).toBeVisible();
    await expect(summary).toContainText(state.devnet.payee);
    const walletPanel = page.getByRole("region", { name: "Pay with your wallet" });
    const transfer = page.getByRole("region", { name: "Pay by transfer or QR code" });
    const show = transfer.getByRole("button", { name: "Show the deposit address" });
    await expect(show).toBeEnabled();
    await expect(walletPanel.getByRole("button", { name: "Connect wallet" })).toBeEnabled();
    const [walletBox, transferBox] = await Promise.all([walletPanel.boundingBox(), transfer.boundingBox()]);
    expect(walletBox!.y).toBeLessThan(transferBox!.y);
    // A wallet is here: no "open in a wallet app's browser" links, and no address to send to yet.
    await expect(page.getByTestId("open-in-wallet")).toHaveCount(0);
    await expect(page.locator("[data-send-to]")).toHaveCount(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(`phone-wallet-${viewport.name}-01-pending`);

    // The deposit view's code loads only on the click.
    const before = js.length;
    await show.click();
    const address = page.getByTestId("deposit-address");
    await expect(address).toHaveText(/^0x[0-9a-fA-F]{40}$/, { timeout: 30_000 });
    expect(js.length).toBeGreaterThan(before);
    await expect(page.locator("[data-send-to]")).toHaveCount(1);
    await expect(transfer.getByRole("link", { name: /Open in a wallet app/ })).toBeVisible();
    await shot(`phone-wallet-${viewport.name}-02-deposit-address`);

    // Paid by a plain transfer from another wallet: the page turns to paid, badge and panel together.
    const payer = createWalletClient({ account: privateKeyToAccount(state.devnet.payer.privateKey), transport: http(state.devnet.rpcUrl) });
    await payer.writeContract({
      chain: null,
      address: state.devnet.tokens.USDC!,
      abi: erc20Abi,
      functionName: "transfer",
      args: [((await address.textContent()) ?? "") as `0x${string}`, parseUnits("7.25", 6)],
    });
    await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible({ timeout: 30_000 });
    await expect(summary).toContainText("Paid");
    await expect(summary).not.toContainText("Awaiting payment");
    await expect(page.getByRole("region", { name: "Pay with your wallet" })).toHaveCount(0);
    await shot(`phone-wallet-${viewport.name}-03-paid`);
  });
}
