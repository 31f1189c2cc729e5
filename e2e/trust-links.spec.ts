import { randomBytes } from "node:crypto";
import { createDemoSession, createLink, withDb } from "./support/api";
import { expect, test } from "./support/fixtures";

/**
 * Issue #24 pages: the dashboard's client ID list shows an orchestrator's link of the account's
 * client ID and ends it; the hosted page of a paid link waiting for settlement says the payment
 * arrived (nothing to pay, not expired).
 */
for (const viewport of [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
]) {
  test(`${viewport.name}: a client ID linked by an orchestrator is shown on the dashboard and the platform ends the link`, async ({
    page,
    state,
    shot,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const suffix = randomBytes(5).toString("hex");
    const orchestratorId = `acc_e2e_orch_${suffix}`;
    const clientId = `cli_e2e_${suffix}`;
    // An orchestrator that learned the demo account's client ID and linked it directly (POST /v2/orchestrators/client-ids).
    await withDb(state, async (db) => {
      await db.query(`INSERT INTO "Account" ("id", "name", "updatedAt") VALUES ($1, 'Acme Orchestrator', now())`, [orchestratorId]);
      await db.query(`INSERT INTO "ClientId" ("id", "accountId", "name", "allowedDomains", "updatedAt") VALUES ($1, $2, $3, '{}', now())`, [
        clientId,
        state.demo.accountId,
        `Checkout ${viewport.name}`,
      ]);
      await db.query(`INSERT INTO "ClientIdLink" ("id", "clientId", "orchestratorAccountId", "status") VALUES ($1, $2, $3, 'active')`, [
        `lnk_${suffix}`,
        clientId,
        orchestratorId,
      ]);
    });
    await page.context().addCookies([{ name: "session_token", value: await createDemoSession(state), url: state.baseUrl }]);
    await page.goto("/dashboard/keys");
    const row = page.getByTestId("client-ids").getByRole("listitem").filter({ hasText: clientId });
    const link = row.getByTestId("orchestrator-link");
    await expect(link).toContainText("Acme Orchestrator");
    await expect(link).toContainText("directly");
    await row.scrollIntoViewIfNeeded();
    await shot(`trust-${viewport.name}-01-keys-orchestrator-link`);

    await link.getByRole("button", { name: `End the orchestrator link of client ID Checkout ${viewport.name}` }).click();
    await expect(row.getByTestId("orchestrator-link")).toContainText("ended");
    await shot(`trust-${viewport.name}-02-keys-link-ended`);
    const audit = await withDb(state, (db) =>
      db.query(`SELECT "action", "accountId" FROM "AdminAuditEntry" WHERE "target" = $1 ORDER BY "createdAt"`, [clientId]),
    );
    expect(audit.rows).toEqual([{ action: "client_id.orchestrator_unlink", accountId: state.demo.accountId }]);
  });

  test(`${viewport.name}: a paid link waiting for its checks says the payment was received, past its expiry too`, async ({
    page,
    state,
    shot,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const link = await createLink(state, { requests: [{ amount: "3" }], reference: `RECEIVED-${viewport.name}` });
    // Detection recorded the payment; settlement (screening) has not run; the expiry has passed.
    // The link pays in the currency of the demo's active destination, which earlier journeys may change.
    const symbol = await withDb(state, async (db) => {
      await db.query(`UPDATE "PaymentRequest" SET "status" = 'paid', "amountPaid" = "expectedAmount" WHERE "id" = $1`, [
        link.requestIds[0],
      ]);
      await db.query(`UPDATE "SecurePayment" SET "expiresAt" = now() - interval '1 minute' WHERE "token" = $1`, [link.token]);
      const row = await db.query(`SELECT "currency" FROM "SecurePayment" WHERE "token" = $1`, [link.token]);
      return String(row.rows[0].currency).split("-")[0];
    });
    await page.goto(`/pay/${link.token}`);
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
    const summary = page.getByRole("region", { name: /Payment request/ });
    await expect(summary.locator("p").first()).toHaveText(`3 ${symbol}`);
    await expect(summary).toContainText("Payment received");
    await expect(summary).not.toContainText("Still to pay");
    await expect(summary).not.toContainText("Expired");
    await expect(page.getByText("This payment link has expired")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /pay/i })).toHaveCount(0);
    await shot(`trust-${viewport.name}-03-payment-received`);
  });
}
