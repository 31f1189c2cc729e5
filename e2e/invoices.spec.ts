/**
 * A link with an invoice (issue 30, item 3): the hosted page shows the invoice number and dates, each
 * line with quantity × unit price and its tax rate, the subtotal, the tax per rate and the total, at
 * 1280 and 390 px, without horizontal scrolling. The totals were worked by hand:
 *   1 × 120.00 = 120.00, 20 % → 24.00;  3 × 15.00 = 45.00, 20 % → 9.00;  2 × 4.00 = 8.00, 7.5 % → 0.60
 *   subtotal 173.00; tax 7.5 % 0.60 (on 8.00), 20 % 33.00 (on 165.00); total 206.60
 */
import { activateDestination, createLink } from "./support/api";
import { expect, test } from "./support/fixtures";

for (const viewport of [
  { name: "1280", width: 1280, height: 900 },
  { name: "390", width: 390, height: 844 },
]) {
  test(`an invoice on the hosted page at ${viewport.name} px`, async ({ page, state, shot }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await activateDestination(state, state.demo.destinationId);
    const link = await createLink(state, {
      requests: [{ amount: "206.60" }],
      destinationId: state.demo.destinationId,
      reference: "ORDER-3107",
      description: "Brand refresh for Fernwood Coffee",
      invoice: {
        issueDate: "2026-11-29",
        dueDate: "2026-12-13",
        notes: "Payment due within 14 days. Thank you for your business.",
        lines: [
          { description: "Brand identity workshop (half day)", quantity: "1", unitPrice: "120.00", taxRate: "20" },
          { description: "Logo variations", quantity: "3", unitPrice: "15.00", taxRate: "20" },
          { description: "Printed style guide", quantity: "2", unitPrice: "4.00", taxRate: "7.5" },
        ],
      },
    });
    await page.goto(`/pay/${link.token}`);
    const invoice = page.getByTestId("invoice");
    await expect(invoice.getByRole("heading", { name: /^Invoice INV-\d{6}$/ })).toBeVisible();
    await expect(invoice).toContainText("Issued 29 Nov 2026");
    await expect(invoice).toContainText("Due 13 Dec 2026");
    const lines = invoice.getByRole("list", { name: "Invoice lines" }).getByRole("listitem");
    await expect(lines).toHaveCount(3);
    await expect(lines.nth(1)).toContainText("Logo variations");
    await expect(lines.nth(1)).toContainText("3 × 15.00");
    await expect(lines.nth(1)).toContainText("Tax 20 %");
    await expect(lines.nth(1)).toContainText("45.00");
    await expect(lines.nth(2)).toContainText("Tax 7.5 %");
    await expect(invoice).toContainText(/Subtotal\s*173\.00/);
    await expect(invoice).toContainText(/Tax 7\.5 %\s*on 8\.00\s*0\.60/);
    await expect(invoice).toContainText(/Tax 20 %\s*on 165\.00\s*33\.00/);
    await expect(invoice).toContainText("206.60");
    await expect(invoice).toContainText("Payment due within 14 days.");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(`invoices-${viewport.name}`);
  });
}
