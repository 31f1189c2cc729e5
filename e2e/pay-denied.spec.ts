import { activateDestination, createDemoSession, createLink, getSecurePayment } from "./support/api";
import { connectTestWallet, expect, test } from "./support/fixtures";
import { TestWallet } from "./support/test-wallet";

test("a payer on the deny list pays, and the link ends in compliance_failed", async ({ page, state, shot }) => {
  await activateDestination(state, state.demo.destinationId);
  const link = await createLink(state, {
    requests: [{ amount: "7" }],
    destinationId: state.demo.destinationId,
    reference: "Blocked payer",
  });
  const wallet = new TestWallet({
    rpcUrl: state.devnet.rpcUrl,
    chainId: state.devnet.chainId,
    privateKey: state.devnet.deniedPayer.privateKey,
    startChainId: state.devnet.chainId,
  });
  await wallet.install(page);

  await page.goto(`/pay/${link.token}`);
  await connectTestWallet(page, wallet.address);
  await page.getByRole("button", { name: "Approve and pay" }).click();

  // Detection sees the payment, screening rejects the payer: the page says so without details.
  await expect(page.getByRole("heading", { name: "This payment could not be accepted" })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator("body")).not.toContainText(/sanction|kyt|screen|ofac|deny/i);
  await shot("denied-01-compliance-failed");

  const sp = await getSecurePayment(state, link.requestIds[0] ?? "", await createDemoSession(state));
  expect(sp.body.status).toBe("compliance_failed");
  expect(sp.body.payerKytResults).toEqual([
    expect.objectContaining({ walletAddress: wallet.address, status: "rejected", reasonCode: "deny_listed" }),
  ]);
});
