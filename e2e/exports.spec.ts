/**
 * The dashboard's Export (issue 30 item 4): the control on the payments page at 1280 and 390 px, a
 * CSV download through /dashboard/export (the page session, no API key) whose header row is the
 * documented column list and whose data row is the seeded payment (read with an RFC 4180 reader),
 * and a refused filter shown on the page.
 */
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { parseRfc4180 } from "@/tests/exports/rfc4180";
import { withDb } from "./support/api";
import { expect, test } from "./support/fixtures";

const DEMO = { email: "demo@duebill.local", password: "duebill-demo" };
const COLUMNS =
  "date,type,direction,id,requestId,reference,invoiceNumber,network,tokenSymbol,tokenAddress,amount,signedAmount,invoiceCurrency,invoiceAmount,feeAmount,feeAddress,payer,payee,txHash,logIndex,blockNumber,explorerUrl,paymentReference,status,paidAmount,refundedAmount";
const REFERENCE = 'E2E-EXPORT, "quoted"';

async function signIn(page: Page, next: string): Promise<void> {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  const card = page.getByRole("region", { name: "With email" });
  await card.getByLabel("Email").fill(DEMO.email);
  await card.getByLabel("Password").fill(DEMO.password);
  await card.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[/?]/g, "\\$&")}$`));
}

test("export control at 1280 and 390 px; the CSV download has the documented header and the payment", async ({ page, state, shot }) => {
  const id = `01${randomBytes(32).toString("hex")}`;
  const paymentId = `E2EEXP${randomBytes(10).toString("hex").toUpperCase()}`;
  const txHash = `0x${randomBytes(32).toString("hex")}`;
  await withDb(state, async (db) => {
    await db.query(
      `INSERT INTO "PaymentRequest" ("id", "accountId", "kind", "network", "invoiceCurrency", "paymentCurrency", "tokenAddress", "amount",
         "expectedAmount", "amountPaid", "payee", "salt", "paymentReference", "referenceHash", "status", "reference", "createdAt", "updatedAt")
       VALUES ($1, $2, 'request', 'base', 'USD', 'USDC-base', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', '42.5', 42500000, 42500000,
         $3, '00', $4, $5, 'paid', $6, '2026-03-01T09:00:00Z', now())`,
      [id, state.demo.accountId, state.devnet.payee, `0x${id.slice(2, 18)}`, `0x${id.slice(2)}`, REFERENCE],
    );
    await db.query(
      `INSERT INTO "Payment" ("id", "requestId", "accountId", "network", "txHash", "logIndex", "blockNumber", "blockHash", "payer", "payee",
         "tokenAddress", "amount", "feeAmount", "proxyAddress", "blockTime")
       VALUES ($1, $2, $3, 'base', $4, 5, 777, $5, $6, $7, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 42500000, 0,
         '0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814', '2026-03-01T10:00:00Z')`,
      [paymentId, id, state.demo.accountId, txHash, `0x${"0".repeat(64)}`, state.devnet.payer.address, state.devnet.payee],
    );
  });
  await signIn(page, "/dashboard/payments");
  const form = page.getByTestId("export-form");
  for (const vp of [
    { name: "desktop", width: 1280, height: 900 },
    { name: "phone", width: 390, height: 844 },
  ]) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    await expect(form.getByRole("button", { name: "Download" })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${vp.name}: no sideways scroll`).toBeLessThanOrEqual(0);
    await page.getByRole("region", { name: "Export" }).screenshot({ path: `e2e/screenshots/exports-${vp.name}-control.png` });
    await shot(`exports-${vp.name}-page`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await form.getByLabel("From (UTC, inclusive)").fill("2026-03-01");
  await form.getByLabel("Until (UTC, exclusive)").fill("2026-03-02");
  await form.getByLabel("Network").selectOption("base");
  await form.getByLabel("Currency").fill("USD");
  await form.getByLabel("Status").selectOption("paid");
  await form.getByLabel("Format").selectOption("csv-excel");
  const [download] = await Promise.all([page.waitForEvent("download"), form.getByRole("button", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toBe("duebill-payments-2026-03-01-2026-03-02.csv");
  const bytes = await (async () => {
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  })();
  expect(bytes.subarray(0, 3).toString("hex")).toBe("efbbbf");
  const [header, ...rows] = parseRfc4180(bytes.subarray(3).toString("utf8"));
  expect(header!.join(",")).toBe(COLUMNS);
  expect(rows).toHaveLength(1);
  const row = Object.fromEntries(header!.map((h, i) => [h, rows[0]![i]]));
  expect(row).toMatchObject({
    date: "2026-03-01T10:00:00.000Z",
    type: "payment",
    id: paymentId,
    requestId: id,
    reference: REFERENCE,
    network: "base",
    tokenSymbol: "USDC",
    amount: "42.5",
    invoiceCurrency: "USD",
    invoiceAmount: "42.5",
    txHash,
    logIndex: "5",
    blockNumber: "777",
    status: "paid",
  });

  // A refund status on payments is refused, and the page says which filter.
  await form.getByLabel("Status").selectOption("confirmed");
  await form.getByRole("button", { name: "Download" }).click();
  await expect(page.getByTestId("export-error")).toContainText("Status: must be one of pending, partially_paid, paid for payments");
  await page.getByRole("region", { name: "Export" }).screenshot({ path: "e2e/screenshots/exports-desktop-refused.png" });
});
