/**
 * A payer with no browser wallet pays a link by sending a plain token transfer to the request's
 * deposit address (shown as text and as an EIP-681 QR code): the deposit relayer forwards it
 * through the ERC20FeeProxy with the reference, detection records it, the page turns to paid and
 * the integrator's webhook receives one signed payment.confirmed.
 */
import { createWalletClient, erc20Abi, http, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { activateDestination, createLink, type E2eState } from "./support/api";
import { expect, test } from "./support/fixtures";
import { startReceiver } from "./support/receiver";

async function sendToken(state: E2eState, to: string, amount: string) {
  const wallet = createWalletClient({
    account: privateKeyToAccount(state.devnet.payer.privateKey),
    transport: http(state.devnet.rpcUrl),
  });
  await wallet.writeContract({
    chain: null,
    address: state.devnet.tokens.USDC!,
    abi: erc20Abi,
    functionName: "transfer",
    args: [to as `0x${string}`, parseUnits(amount, 6)],
  });
}

for (const viewport of [
  { name: "desktop", width: 1280, height: 900 },
  { name: "mobile", width: 390, height: 844 },
]) {
  test(`${viewport.name}: a payer without a wallet pays by transfer to the deposit address`, async ({ page, state, shot }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const receiver = await startReceiver();
    const hook = await fetch(`${state.baseUrl}/v1/webhook`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-client-id": state.demo.clientId },
      body: JSON.stringify({ url: receiver.url }),
    });
    expect(hook.status).toBe(201);
    const { id: webhookId, secret } = (await hook.json()) as { id: string; secret: string };
    receiver.secret.value = secret;
    try {
      await activateDestination(state, state.demo.destinationId);
      const link = await createLink(state, {
        requests: [{ amount: "42" }],
        destinationId: state.demo.destinationId,
        reference: "INV-2026-0107",
        description: "Studio plan, November 2026",
        lineItems: [
          { description: "Studio plan (monthly)", unitAmount: "30" },
          { description: "Extra seats", quantity: 3, unitAmount: "4" },
        ],
        redirectUrl: "https://merchant.example/thanks?order=107",
        redirectLabel: "Back to the shop",
      });
      // Hydration over the no-wallet order (wallet-presence.ts adds a <style> to <head> before React runs) logs nothing.
      const errors: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`/pay/${link.token}`);
      // Every state the page shows, as the payer sees it (badge, headings): the page must never say
      // "Payment complete" beside "Awaiting payment", nor go back once it said it.
      await page.evaluate(() => {
        const w = window as unknown as { __states: string[] };
        w.__states = [];
        const record = () => {
          const badge = [...document.querySelectorAll("section[aria-labelledby=summary-heading] span")].find((e) =>
            e.textContent?.startsWith("Status:"),
          );
          const complete = [...document.querySelectorAll("h2")].some((h) => h.textContent === "Payment complete");
          const state = `${badge?.textContent?.replace("Status: ", "") ?? "?"}|${complete ? "complete" : "-"}`;
          if (w.__states.at(-1) !== state) w.__states.push(state);
        };
        record();
        new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      const summary = page.getByRole("region", { name: "Payment request" });
      await expect(summary).toContainText("Studio plan, November 2026");
      await expect(summary).toContainText("Extra seats");
      await expect(summary).toContainText("3 × 4 USDC");
      // The merchant is the payee, never an address to send to.
      await expect(summary.getByText("Payee", { exact: true })).toBeVisible();
      await expect(summary).toContainText(state.devnet.payee);
      await expect(page.getByText("Pay to", { exact: true })).toHaveCount(0);

      // No wallet in this browser: paying by transfer is the first way offered, and it opens by itself.
      const transfer = page.getByRole("region", { name: "Pay by transfer or QR code" });
      const walletPanel = page.getByRole("region", { name: "Pay with your wallet" });
      const address = page.getByTestId("deposit-address");
      await expect(address).toHaveText(/^0x[0-9a-fA-F]{40}$/, { timeout: 30_000 });
      const qr = transfer.getByRole("img", { name: /QR code: send 42 USDC on Sepolia to 0x/ });
      await expect(qr).toBeVisible();
      const [qrBox, addressBox, walletBox] = await Promise.all([qr.boundingBox(), address.boundingBox(), walletPanel.boundingBox()]);
      expect(qrBox!.y).toBeLessThan(walletBox!.y);
      expect(addressBox!.y).toBeLessThan(walletBox!.y);
      await expect(transfer.getByRole("button", { name: "Show the deposit address" })).toHaveCount(0);
      // Exactly one address to send to on the page: this payment's deposit address, not the merchant's.
      const sendTo = page.locator("[data-send-to]");
      await expect(sendTo).toHaveCount(1);
      expect((await sendTo.textContent())?.toLowerCase()).not.toBe(state.devnet.payee.toLowerCase());
      // "Connect wallet" comes after, with the way to a wallet app's browser.
      await expect(walletPanel.getByRole("button", { name: "Connect wallet" })).toBeVisible();
      await expect(walletPanel.getByRole("link", { name: "MetaMask" })).toHaveAttribute(
        "href",
        `https://metamask.app.link/dapp/${new URL(state.baseUrl).host}/pay/${link.token}`,
      );
      await expect(walletPanel.getByRole("link", { name: "Coinbase Wallet" })).toHaveAttribute(
        "href",
        `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(`${state.baseUrl}/pay/${link.token}`)}`,
      );
      await shot(`transfer-${viewport.name}-01-pending`);

      await expect(page.getByTestId("deposit-amount")).toHaveText("42 USDC");
      await expect(transfer.getByRole("link", { name: /Open in a wallet app/ })).toHaveAttribute(
        "href",
        new RegExp(`^ethereum:${state.devnet.tokens.USDC}@${state.devnet.chainId}/transfer\\?address=0x[0-9a-fA-F]{40}&uint256=42000000$`),
      );
      await expect(page.getByTestId("deposit-status")).toHaveText(/Waiting for your transfer/);
      if (viewport.width < 400) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
      await shot(`transfer-${viewport.name}-02-deposit-address`);

      // An exchange withdrawal sends less than asked: the page says what is missing and waits.
      const to = (await address.textContent()) ?? "";
      await sendToken(state, to, "40");
      await expect(page.getByTestId("deposit-status")).toHaveText(/Received 40 of 42 USDC\. Send the remaining 2 USDC/, {
        timeout: 15_000,
      });
      await shot(`transfer-${viewport.name}-03-partly-received`);

      // The rest arrives: forwarded, detected, paid.
      await sendToken(state, to, "2");
      await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole("link", { name: "Back to the shop" }).first()).toBeVisible();
      await expect(summary).toContainText("Paid");
      await shot(`transfer-${viewport.name}-04-paid`);
      if (viewport.width < 400) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
      expect(errors).toEqual([]);
      // No flicker: from the first "Payment complete" on, the page says paid, and never beside "Awaiting payment".
      const states = await page.evaluate(() => (window as unknown as { __states: string[] }).__states);
      const first = states.findIndex((x) => x.endsWith("|complete"));
      expect(first, states.join(" → ")).toBeGreaterThanOrEqual(0);
      expect(
        states.filter((x) => x.startsWith("Awaiting payment|complete")),
        states.join(" → "),
      ).toEqual([]);
      expect(
        states.slice(first).every((x) => x.startsWith("Paid|")),
        states.join(" → "),
      ).toBe(true);

      await expect.poll(() => receiver.received.filter((r) => r.body.event === "payment.confirmed").length, { timeout: 20_000 }).toBe(1);
      const event = receiver.received.find((r) => r.body.event === "payment.confirmed")!;
      expect(event.valid).toBe(true);
      expect(event.body).toMatchObject({ requestId: link.requestIds[0] });
      // Attributed to who sent the tokens, not to the relayer that forwarded them.
      const view = (
        (await (await fetch(`${state.baseUrl}/v2/secure-payments/${link.token}`)).json()) as { checkout: { payerAddress: string } }
      ).checkout;
      expect(view.payerAddress.toLowerCase()).toBe(state.devnet.payer.address.toLowerCase());
    } finally {
      await fetch(`${state.baseUrl}/v1/webhook/${webhookId}`, { method: "DELETE", headers: { "x-client-id": state.demo.clientId } });
      await receiver.close();
    }
  });
}
