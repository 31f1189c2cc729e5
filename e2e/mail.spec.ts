/**
 * Receipts by email (#30 item 5), the payer's side: a link created with collectPayerEmail shows
 * "Email for your receipt" before the ways to pay, at 1280 and 390 px; an invalid address is refused
 * in the page, a valid one is saved (in the database, never shown back on the public view).
 */
import { activateDestination, createLink, withDb } from "./support/api";
import { expect, test } from "./support/fixtures";

for (const viewport of [
  { name: "desktop", width: 1280, height: 900 },
  { name: "mobile", width: 390, height: 844 },
]) {
  test(`${viewport.name}: the payer gives an email for the receipt before paying`, async ({ page, state, shot }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await activateDestination(state, state.demo.destinationId);
    const link = await createLink(state, {
      requests: [{ amount: "19.90" }],
      destinationId: state.demo.destinationId,
      reference: `MAIL-${viewport.name}`,
      collectPayerEmail: true,
    });
    await page.goto(`/pay/${link.token}`);

    const card = page.getByRole("region", { name: "Receipt by email" });
    const input = card.getByLabel("Email for your receipt");
    await expect(input).toBeVisible();
    const walletPanel = page.getByRole("region", { name: "Pay with your wallet" });
    await expect(walletPanel).toBeVisible();
    const [cardBox, walletBox] = await Promise.all([card.boundingBox(), walletPanel.boundingBox()]);
    expect(cardBox!.y).toBeLessThan(walletBox!.y);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(`mail-${viewport.name}-01-field`);

    await input.fill("not-an-email");
    await card.getByRole("button", { name: "Save email" }).click();
    await expect(card.getByText("Enter an email address such as name@example.com")).toBeVisible();
    await expect(input).toHaveAttribute("aria-invalid", "true");
    await shot(`mail-${viewport.name}-02-invalid`);

    const email = `payer-${viewport.name}@customer.example`;
    await input.fill(email);
    await card.getByRole("button", { name: "Save email" }).click();
    await expect(card.getByTestId("payer-email-saved")).toHaveText("Your receipt will be emailed once the payment is confirmed.");
    await shot(`mail-${viewport.name}-03-saved`);
    const stored = await withDb(state, (db) => db.query(`SELECT "payerEmail" FROM "SecurePayment" WHERE token = $1`, [link.token]));
    expect(stored.rows[0]?.payerEmail).toBe(email);

    // After a reload the page knows an email was given, never which.
    await page.reload();
    await expect(card.getByTestId("payer-email-saved")).toBeVisible();
    await expect(page.getByText(email)).toHaveCount(0);
    const pub = await (await fetch(`${state.baseUrl}/v2/secure-payments/${link.token}`)).text();
    expect(pub).not.toContain(email);
    expect(JSON.parse(pub)).toMatchObject({ checkout: { collectPayerEmail: true, payerEmailGiven: true } });
  });
}
