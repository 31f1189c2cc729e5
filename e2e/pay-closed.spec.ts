import { activateDestination, createLink, expireLink, withDb } from "./support/api";
import { expect, test } from "./support/fixtures";

test("an expired link shows as expired, with no way to pay", async ({ page, state, shot }) => {
  await activateDestination(state, state.demo.destinationId);
  const link = await createLink(state, {
    requests: [{ amount: "40" }],
    destinationId: state.demo.destinationId,
    reference: "Expired invoice",
  });
  await expireLink(state, link.token);

  const res = await page.goto(`/pay/${link.token}`);
  expect(res?.status()).toBe(200);
  await expect(page).toHaveTitle(/Payment link/);
  await expect(page.getByRole("heading", { name: "This payment link has expired" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Payment request" })).toContainText("Status: Expired");
  await expect(page.getByRole("region", { name: "Payment request" })).toContainText(/Expired.*UTC.*ago/);
  await expect(page.getByRole("button")).toHaveCount(0);
  await shot("closed-01-expired");

  // The public API agrees, and refuses a plan.
  const view = await (await fetch(`${state.baseUrl}/v2/secure-payments/${link.token}`)).json();
  expect(view.status).toBe("expired");
  const plan = await fetch(`${state.baseUrl}/v2/secure-payments/${link.token}/pay?wallet=${state.devnet.payer.address}`);
  expect(plan.status).toBe(409);
});

test("invalidated and compliance-failed links explain themselves without details", async ({ page, state, shot }) => {
  await activateDestination(state, state.demo.destinationId);
  for (const [status, heading] of [
    ["invalidated", "This payment link is no longer valid"],
    ["compliance_failed", "This payment could not be accepted"],
  ] as const) {
    const link = await createLink(state, { requests: [{ amount: "5" }], destinationId: state.demo.destinationId });
    await withDb(state, (db) => db.query(`UPDATE "SecurePayment" SET "status" = $2 WHERE "token" = $1`, [link.token, status]));
    await page.goto(`/pay/${link.token}`);
    await expect(page.getByRole("heading", { name: heading })).toBeVisible();
    await expect(page.getByRole("button")).toHaveCount(0);
    // Screening results never reach the payer.
    await expect(page.locator("body")).not.toContainText(/sanction|kyt|screen|ofac/i);
    await shot(`closed-02-${status.replace("_", "-")}`);
  }
});

test("an unknown token is a 404 page", async ({ page, shot }) => {
  const res = await page.goto("/pay/01JZZZZZZZZZZZZZZZZZZZZZZZ");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Payment link not found" })).toBeVisible();
  await shot("closed-03-not-found");
});
