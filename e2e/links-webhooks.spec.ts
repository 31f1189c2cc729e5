/**
 * Links and webhooks a merchant can manage (issue 27 item 5), in Chromium as the merchant would:
 * the links list filters by status and by reference or amount, copies a link (read back from the
 * clipboard), shows each link's expiry, and cancels one only after a dialog naming what stops
 * working — dismissing it changes nothing, confirming closes the link, and its pay page says so.
 * The webhooks page sends a test event beside one endpoint to a local receiver and shows the
 * attempt's request and response bodies (the receiver echoes the signing secret: the log masks
 * it), pages the log, and deletes an endpoint only after a dialog. Screenshots at 1280 and 390 px.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { activateDestination, createLink, type E2eState, expireLink, withDb } from "./support/api";
import { settledAxe } from "./support/axe";
import { expect, test } from "./support/fixtures";

const DEMO = { email: "demo@duebill.local", password: "duebill-demo" };
const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function signIn(page: Page, next: string): Promise<void> {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  const card = page.getByRole("region", { name: "With email" });
  await card.getByLabel("Email").fill(DEMO.email);
  await card.getByLabel("Password").fill(DEMO.password);
  await card.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[/?]/g, "\\$&")}$`));
}

/** Both widths: no sideways scroll, and a screenshot of each. */
async function shootBoth(page: Page, shot: (n: string) => Promise<void>, name: string): Promise<void> {
  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${vp.width} px`).toBeLessThanOrEqual(0);
    await shot(`links-webhooks-${vp.name}-${name}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** axe-core's WCAG 2 A/AA rules on the page as it is now (issue 27 item 7 asks it of every page). */
async function expectAccessible(page: Page, what: string): Promise<void> {
  const { violations } = await settledAxe(page, ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  expect(
    violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    what,
  ).toEqual([]);
}

/** Fails the test on any console error of the page. */
function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return errors;
}

test("links: filter by status and by reference or amount, copy, expiry; cancel asks first, then the pay page is closed", async ({
  page,
  state,
  shot,
}) => {
  const errors = watchConsole(page);
  await activateDestination(state, state.demo.destinationId);
  const tag = `LW${Date.now().toString(36).toUpperCase()}`;
  const make = (amount: string, suffix: string) =>
    createLink(state, { requests: [{ amount }], destinationId: state.demo.destinationId, reference: `${tag}-${suffix}` });
  const keep = await make("11", "KEEP");
  const cancel = await make("22.5", "CANCEL");
  const old = await make("33", "OLD");
  await expireLink(state, old.token);

  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: state.baseUrl });
  await signIn(page, "/dashboard/links");
  const list = page.getByRole("region", { name: "Your links" });
  const search = async (q: string) => {
    await list.getByLabel("Search by reference or amount").fill(q);
    await list.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(q).replace(".", "\\.")}`));
  };
  const rows = list.getByTestId("link-row");

  await search(tag);
  await expect(rows).toHaveCount(3);
  await expect(list.getByTestId("links-count")).toHaveText("3 links match");
  const row = (suffix: string) => rows.filter({ hasText: `${tag}-${suffix}` });
  await expect(row("KEEP").getByTestId("link-expiry")).toContainText(/Expires in (6|7) days · .* UTC/);
  await expect(row("OLD").getByTestId("link-expiry")).toContainText(/Expired 1 minute ago · .* UTC/);
  await expect(row("OLD")).toContainText("Expired");
  // An expired link offers nothing to cancel.
  await expect(row("OLD").getByRole("button", { name: "Cancel" })).toHaveCount(0);

  // Status filters keep the search.
  const chip = async (name: string, status: string | null) => {
    await list.getByRole("link", { name, exact: true }).click();
    await expect(page).toHaveURL(status ? new RegExp(`status=${status}&q=${tag}`) : new RegExp(`/dashboard/links\\?q=${tag}$`));
    await expect(list.getByRole("link", { name, exact: true })).toHaveAttribute("aria-current", "page");
  };
  await chip("Expired", "expired");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${tag}-OLD`);
  await chip("Pending", "pending");
  await expect(rows).toHaveCount(2);
  await chip("Paid", "paid");
  await expect(list.getByTestId("links-count")).toHaveText("No links match.");
  await chip("All", null);
  // By amount, as the merchant types it.
  await search("22.50");
  await expect(rows.filter({ hasText: tag })).toHaveCount(1);
  await expect(rows.filter({ hasText: tag }).first()).toContainText(`${tag}-CANCEL`);

  await search(tag);
  await shootBoth(page, shot, "01-links");
  await expectAccessible(page, "links list");

  // Copy: the button says so, and the clipboard holds the hosted page's address.
  await row("KEEP")
    .getByRole("button", { name: /^Copy link/ })
    .click();
  await expect(row("KEEP").getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${state.baseUrl}/pay/${keep.token}`);
  await expect(row("KEEP").getByRole("button", { name: /^Copy link/ })).toBeVisible({ timeout: 5_000 });

  // Cancel: the dialog names what stops working; keeping the link changes nothing.
  await row("CANCEL").getByRole("button", { name: "Cancel" }).click();
  const dialog = page.getByRole("dialog", { name: new RegExp(`Cancel the payment link .*${tag}-CANCEL`) });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Payers holding this link can no longer pay it");
  await shootBoth(page, shot, "02-cancel-dialog");
  await dialog.getByRole("button", { name: "Keep it" }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(row("CANCEL")).toContainText("Awaiting payment");
  const statusOf = (token: string) =>
    withDb(state, async (db) => (await db.query(`SELECT status, "cancelledAt" FROM "SecurePayment" WHERE token = $1`, [token])).rows[0]);
  expect(await statusOf(cancel.token)).toEqual({ status: "pending", cancelledAt: null });

  // Confirmed: cancelled at once, listed under Cancelled (not Expired), and its pay page is closed.
  await row("CANCEL").getByRole("button", { name: "Cancel" }).click();
  await dialog.getByRole("button", { name: "Cancel link" }).click();
  await expect(row("CANCEL")).toContainText("Cancelled");
  await expect(row("CANCEL").getByTestId("link-expiry")).toContainText(/Cancelled less than a minute ago|Cancelled 1 minute ago/);
  await expect(row("CANCEL").getByRole("button", { name: "Cancel" })).toHaveCount(0);
  expect(await statusOf(cancel.token)).toMatchObject({ status: "expired", cancelledAt: expect.any(Date) });
  await chip("Cancelled", "cancelled");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${tag}-CANCEL`);
  await chip("Expired", "expired");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${tag}-OLD`);
  await chip("All", null);
  await shootBoth(page, shot, "03-links-cancelled");

  const plan = await fetch(`${state.baseUrl}/v2/secure-payments/${cancel.token}/pay?wallet=${state.devnet.payee}`);
  expect(plan.status).toBe(409);
  await page.goto(`/pay/${cancel.token}`);
  await expect(page.getByRole("heading", { name: "This payment link has expired" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Connect wallet" })).toHaveCount(0);
  await shootBoth(page, shot, "04-pay-cancelled");
  // The kept link still takes payment.
  expect((await fetch(`${state.baseUrl}/v2/secure-payments/${keep.token}/pay?wallet=${state.devnet.payee}`)).status).toBe(200);
  expect(errors).toEqual([]);
});

/** A receiver that answers JSON echoing the signing secret (a misconfigured one): the log must mask it. */
async function startEchoReceiver() {
  const secret = { value: "" };
  let hits = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      hits += 1;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ received: true, hit: hits, echoedSecret: secret.value, orderId: "ORDER-77" }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    secret,
    hits: () => hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function registerWebhook(state: E2eState, url: string): Promise<{ id: string; secret: string }> {
  const res = await fetch(`${state.baseUrl}/v1/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-client-id": state.demo.clientId },
    body: JSON.stringify({ url }),
  });
  const body = (await res.json()) as { id: string; secret: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body;
}

test("webhooks: a test event beside one endpoint, its request and response in the log (secret masked), the log paged, delete asks first", async ({
  page,
  state,
  shot,
}) => {
  const errors = watchConsole(page);
  const receiver = await startEchoReceiver();
  try {
    const hook = await registerWebhook(state, receiver.url);
    receiver.secret.value = hook.secret;
    await signIn(page, "/dashboard/webhooks");
    const endpoint = page.getByRole("region", { name: receiver.url });
    await endpoint.getByRole("combobox", { name: "Test event" }).selectOption("payment.confirmed");
    await endpoint.getByRole("button", { name: "Send test event" }).click();
    await expect(endpoint.getByTestId("test-result")).toContainText("Delivered: your endpoint answered HTTP 200");
    expect(receiver.hits()).toBe(1);

    const delivery = endpoint.getByTestId("delivery").first();
    await expect(delivery).toContainText("payment.confirmed");
    await expect(delivery).toContainText("succeeded");
    await delivery.getByText("Request and response").first().click();
    const exchange = delivery.getByTestId("attempt-exchange").first();
    await expect(exchange.getByTestId("request-body")).toContainText('"event": "payment.confirmed"');
    // The merchant's reference rides in payment.confirmed.
    await expect(exchange.getByTestId("request-body")).toContainText('"reference": "INV-1001"');
    await expect(exchange.getByTestId("request-headers")).toContainText("x-duebill-signature:");
    await expect(exchange.getByTestId("request-headers")).toContainText("…[redacted]");
    await expect(exchange.getByTestId("response-body")).toContainText('"received": true');
    await expect(exchange.getByTestId("response-body")).toContainText('"echoedSecret": "[redacted]"');
    await expect(exchange).toContainText("HTTP 200");
    const html = await page.content();
    expect(html.includes(hook.secret)).toBe(false);
    expect(html.includes(hook.secret.slice("whsec_".length))).toBe(false);
    await shootBoth(page, shot, "05-webhook-log");
    await expectAccessible(page, "webhook log with an attempt opened");

    // More deliveries than one page: the log pages, newest first.
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${state.baseUrl}/v1/webhook/test`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-client-id": state.demo.clientId },
        body: JSON.stringify({ eventType: "payment.failed" }),
      });
      expect(res.status).toBe(201);
    }
    await expect.poll(() => receiver.hits(), { timeout: 30_000 }).toBeGreaterThanOrEqual(11);
    await page.reload();
    const pager = endpoint.getByRole("navigation", { name: `Delivery log pages of ${receiver.url}` });
    await expect(pager).toContainText("Page 1 of 2");
    await expect(endpoint.getByTestId("delivery")).toHaveCount(10);
    await pager.getByRole("link", { name: "Older →" }).click();
    await expect(page).toHaveURL(/log=.*&page=2/);
    await expect(pager).toContainText("Page 2 of 2");
    await expect(endpoint.getByTestId("delivery")).toHaveCount(1);
    // The oldest delivery is the test event sent from the page.
    await expect(endpoint.getByTestId("delivery").first()).toContainText("payment.confirmed");
    await shootBoth(page, shot, "06-webhook-log-page-2");

    // Delete asks first, naming what stops; keeping it changes nothing.
    await endpoint.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog", { name: `Delete the webhook ${receiver.url}?` });
    await expect(dialog).toContainText(`Events stop going to ${receiver.url} at once`);
    await dialog.getByRole("button", { name: "Keep it" }).click();
    await page.reload();
    await expect(endpoint).toBeVisible();
    await endpoint.getByRole("button", { name: "Delete" }).click();
    await dialog.getByRole("button", { name: "Delete webhook" }).click();
    await expect(page.getByRole("region", { name: receiver.url })).toHaveCount(0);
    expect(errors).toEqual([]);
  } finally {
    await receiver.close();
  }
});
