/**
 * Issue 30 (receipts): a payer pays a link on the hosted page, then downloads the signed receipt
 * from the paid page — at 1280 and 390 px. The receipt page checks the signature server-side; the
 * downloaded JSON passes `npm run receipt:verify` with the devnet's RPC, the key set fetched from
 * the server's /.well-known/duebill-receipt-keys.json (the rewrite in next.config.ts).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { activateDestination, createLink } from "./support/api";
import { expect, test } from "./support/fixtures";

const ROOT = path.resolve(__dirname, "..");

for (const viewport of [
  { name: "desktop", width: 1280, height: 900 },
  { name: "mobile", width: 390, height: 844 },
]) {
  test(`${viewport.name}: pay on the hosted page, then download and verify the receipt`, async ({ page, state, wallet, shot }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await activateDestination(state, state.demo.destinationId);
    const link = await createLink(state, {
      requests: [{ amount: "19.9" }],
      destinationId: state.demo.destinationId,
      reference: `ORDER-RCPT-${viewport.name}`,
    });
    await page.goto(`/pay/${link.token}`);
    await page.getByRole("button", { name: "Connect wallet" }).click();
    await page
      .getByRole("dialog")
      .getByRole("button", { name: /Duebill Test Wallet/ })
      .click();
    await expect(page.getByTestId("connected-address")).toHaveText(wallet.address);
    await page.getByRole("button", { name: /^(Approve and pay|Pay\b)/ }).click();
    await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible({ timeout: 60_000 });

    // The paid page offers the receipt (after the live view or the server's refresh has it).
    const download = page.getByRole("link", { name: "Download receipt" });
    await expect(download).toBeVisible({ timeout: 30_000 });
    await shot(`receipts-${viewport.name}-paid`);
    await download.click();
    await expect(page).toHaveURL(/\/receipts\/rcp_[0-9a-z]{26}$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("19.9 USDC");
    await expect(page.getByRole("status")).toContainText("Signature valid — key");
    await expect(page.getByText(`Order ORDER-RCPT-${viewport.name}`)).toBeVisible();
    await expect(page.getByRole("link", { name: "Download PDF" })).toHaveAttribute("href", /\/v2\/receipts\/rcp_[0-9a-z]{26}\/pdf$/);
    // No sideways scroll at this width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shot(`receipts-${viewport.name}-receipt`);

    // Download JSON: the signed receipt of this payment, as a file.
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download JSON" }).click()]);
    expect(file.suggestedFilename()).toMatch(/^receipt-rcp_[0-9a-z]{26}\.json$/);
    const saved = test.info().outputPath(file.suggestedFilename());
    await file.saveAs(saved);
    const signed = JSON.parse(readFileSync(saved, "utf8"));
    expect(signed.receipt).toMatchObject({
      kind: "payment",
      request: { reference: `ORDER-RCPT-${viewport.name}` },
      transfer: { amountDecimal: "19.9" },
    });
    expect(signed.receipt.issuer.url).toBe(state.baseUrl);

    // The independent verifier: keys from the server's well-known URL, the event from the chain.
    const r = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/receipts/verify.ts", saved, "--rpc", state.devnet.rpcUrl], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.stdout, r.stderr).toContain("valid: event: TransferWithReferenceAndFee");
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });
}
