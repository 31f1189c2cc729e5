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
      const js: string[] = [];
      page.on("request", (req) => {
        if (/\/_next\/static\/.*\.js$/.test(req.url())) js.push(req.url());
      });

      await page.goto(`/pay/${link.token}`);
      const summary = page.getByRole("region", { name: "Payment request" });
      await expect(summary).toContainText("Studio plan, November 2026");
      await expect(summary).toContainText("Extra seats");
      await expect(summary).toContainText("3 × 4 USDC");
      const transfer = page.getByRole("region", { name: "Pay by transfer or QR code" });
      await expect(transfer).toContainText("No browser wallet?");
      await shot(`transfer-${viewport.name}-01-pending`);
      const before = js.length;

      // The deposit view (QR code and all) loads only now.
      await transfer.getByRole("button", { name: "Show the deposit address" }).click();
      const address = page.getByTestId("deposit-address");
      await expect(address).toHaveText(/^0x[0-9a-fA-F]{40}$/, { timeout: 30_000 });
      expect(js.length).toBeGreaterThan(before);
      await expect(page.getByTestId("deposit-amount")).toHaveText("42 USDC");
      await expect(transfer.getByRole("img", { name: /QR code: send 42 USDC on Sepolia to 0x/ })).toBeVisible();
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
      await shot(`transfer-${viewport.name}-04-paid`);

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
