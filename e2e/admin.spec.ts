/**
 * The operator's side of issue 27, as an operator would use it: the stale screening list is flagged
 * on /admin; accounts are found by name, email, wallet and ID and paged through; a fee and the
 * branding are set from the account's page (a refused input keeps what was typed and names the
 * field) and show on that account's hosted pay page. The dashboard links to /admin for operators
 * only; a request's page marks Payments in the bar; the sign-in lockout says how long.
 */
import type { Page } from "@playwright/test";
import { privateKeyToAccount } from "viem/accounts";
import { createLink, type E2eState, withDb } from "./support/api";
import { expect, test } from "./support/fixtures";

const DEMO = { email: "demo@duebill.local", password: "duebill-demo" };
const VIEWPORTS = [
  { name: "1280", width: 1280, height: 900 },
  { name: "390", width: 390, height: 844 },
] as const;

async function signIn(page: Page, email: string, password: string, next: string): Promise<void> {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  const card = page.getByRole("region", { name: "With email" });
  await card.getByLabel("Email").fill(email);
  await card.getByLabel("Password").fill(password);
  await card.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[/?]/g, "\\$&")}$`));
}

async function register(state: E2eState, email: string, password = "pager-account-pass"): Promise<void> {
  const res = await fetch(`${state.baseUrl}/v1/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(201);
}

/** Both widths: no sideways scroll, and a screenshot of each. */
async function shootBoth(page: Page, shot: (n: string) => Promise<void>, name: string): Promise<void> {
  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${vp.width} px`).toBeLessThanOrEqual(0);
    await shot(`admin-${name}-${vp.name}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("operator: stale screening list flagged; accounts searched and paged; fee and branding set from the UI show on the pay page", async ({
  page,
  state,
  shot,
}) => {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  const stamp = Date.now().toString(36);
  // 30 accounts to page through (registered as newcomers are, one after the other: their name is their email).
  for (let i = 0; i < 30; i++) await register(state, `pager-${stamp}-${String(i).padStart(2, "0")}@e2e.duebill.test`);
  const feeWallet = privateKeyToAccount(state.devnet.payer.privateKey).address;
  try {
    await signIn(page, DEMO.email, DEMO.password, "/dashboard");
    // The dashboard links an operator to /admin.
    await page.getByRole("link", { name: "Admin" }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("heading", { name: "Health of the background work" })).toBeVisible();
    // The bundled list dates from 2024-09-27: far past the default 24 hours.
    const stale = page.getByTestId("screening-stale");
    await expect(stale).toContainText(/The screening list is \d+ days old \(extracted 2024-09-27\)/);
    await expect(stale).toContainText("SCREENING_LIST_MAX_AGE_HOURS");
    await shootBoth(page, shot, "01-health");

    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Accounts" }).click();
    const search = page.getByRole("searchbox");
    await search.fill(`PAGER-${stamp}`);
    await page.getByRole("button", { name: "Search" }).click();
    const list = page.getByRole("region", { name: `30 accounts matching “PAGER-${stamp}”` });
    const rows = list.getByTestId("account-row");
    await expect(rows).toHaveCount(25);
    await expect(rows.first()).toContainText(`pager-${stamp}-29@`);
    await expect(list.getByRole("link", { name: "← Newer" })).toHaveCount(0);
    await shootBoth(page, shot, "02-accounts");
    await list.getByRole("link", { name: "Older →" }).click();
    await expect(rows).toHaveCount(5);
    await expect(rows.first()).toContainText(`pager-${stamp}-04@`);
    await expect(rows.last()).toContainText(`pager-${stamp}-00@`);
    await expect(list.getByRole("link", { name: "Older →" })).toHaveCount(0);
    await list.getByRole("link", { name: "← Newer" }).click();
    await expect(rows).toHaveCount(25);
    await expect(rows.first()).toContainText(`pager-${stamp}-29@`);

    // By wallet (typed in capitals; stored lowercase) and by account ID.
    await search.fill(state.devnet.payee.slice(0, 12).toUpperCase().replace("0X", "0x"));
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByTestId("account-row")).toHaveCount(1);
    await expect(page.getByTestId("account-row")).toContainText(state.demo.accountId);
    await search.fill(state.demo.accountId);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByTestId("account-row")).toHaveCount(1);
    await page.getByTestId("account-row").getByRole("link").first().click();
    await expect(page).toHaveURL(new RegExp(`/admin/accounts/${state.demo.accountId}$`));
    await expect(page.getByRole("region", { name: "Incoming volume" })).toBeVisible();

    // A fee: a refused input says which field in words and keeps what was typed — first in the
    // browser (the form's schema), then on the server (setFeeConfig's EIP-55 checksum).
    const fees = page.getByRole("region", { name: "Fees" });
    const bps = fees.getByLabel("Fee (basis points, 100 = 1%)");
    // The payer's address with one letter's case flipped: the shape of an address, a wrong checksum.
    const badChecksum = feeWallet.replace(/[a-fA-F]/, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
    await bps.fill("20000");
    await fees.getByLabel("Fee address (EVM)").fill(badChecksum);
    await fees.getByLabel("Label shown to payers").fill("Marketplace fee");
    await fees.getByRole("button", { name: "Save fee" }).click();
    await expect(fees.getByText("Fee (basis points) must be an integer from 0 to 10000")).toBeVisible();
    await expect(bps).toHaveValue("20000");
    await expect(bps).toHaveAttribute("aria-invalid", "true");
    await expect(bps).toBeFocused();
    await expect(fees.getByLabel("Label shown to payers")).toHaveValue("Marketplace fee");
    await bps.fill("250");
    await fees.getByRole("button", { name: "Save fee" }).click();
    await expect(fees.getByText("Fee address (EVM) must be a checksummed 0x address")).toBeVisible();
    await expect(fees.getByLabel("Fee address (EVM)")).toHaveAttribute("aria-invalid", "true");
    await expect(bps).toHaveValue("250");
    await expect(fees.getByLabel("Label shown to payers")).toHaveValue("Marketplace fee");
    await fees.getByLabel("Fee address (EVM)").fill(feeWallet);
    await fees.getByRole("button", { name: "Save fee" }).click();
    await expect(fees.getByRole("status")).toContainText("Fee saved");
    await expect(fees.getByTestId("admin-fee")).toContainText("Get paid: 2.5%");

    // Branding: what payers see of this account.
    const brand = page.getByRole("region", { name: "Branding" });
    await brand.getByLabel("Logo URL (optional)").fill("http://insecure.example/logo.png");
    await brand.getByLabel("Display name").fill("Roastery & Co");
    await brand.getByRole("button", { name: "Save branding" }).click();
    await expect(brand.getByText("Logo URL must be an https URL")).toBeVisible();
    await expect(brand.getByLabel("Logo URL (optional)")).toHaveAttribute("aria-invalid", "true");
    await expect(brand.getByLabel("Display name")).toHaveValue("Roastery & Co");
    await brand.getByLabel("Logo URL (optional)").fill("");
    await brand.getByRole("button", { name: "Save branding" }).click();
    await expect(brand.getByTestId("brand-summary")).toContainText("Payers see Roastery & Co");
    await shootBoth(page, shot, "03-account");

    // Revoking an API key asks first, naming the key and what stops working; "Keep it" changes nothing.
    const apiKeys = page.getByRole("region", { name: "API keys" });
    const revokeKey = apiKeys.getByRole("button", { name: /^Revoke API key / }).first();
    const keyName = ((await revokeKey.textContent()) ?? "").replace(/^Revoke API key /, "").replace(/ \S+$/, "");
    await revokeKey.click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading")).toHaveText(`Revoke API key “${keyName}”?`);
    await expect(dialog).toContainText(`Integrations using ‘${keyName}’`);
    await expect(dialog).toContainText("get 401 from now on");
    await shootBoth(page, shot, "04-revoke-dialog");
    await dialog.getByRole("button", { name: "Keep it" }).click();
    await expect(dialog).toBeHidden();
    await expect(revokeKey).toBeVisible();

    // Applied: a new link of this account carries the fee, and its pay page shows the brand.
    const link = await createLink(state, { requests: [{ amount: "10" }], destinationId: state.demo.destinationId, reference: "ADMIN-FEE" });
    await page.goto(`/pay/${link.token}`);
    await expect(page.getByText("Roastery & Co", { exact: true }).first()).toBeVisible();
    await expect(page.getByRole("region", { name: "Payment request" })).toContainText("0.25 USDC");

    await page.goto("/admin/audit");
    const audit = page.getByTestId("audit");
    await expect(audit).toContainText("fee:set");
    await expect(audit).toContainText("fee:set.refused");
    await expect(audit).toContainText("account:brand");

    // Removing the fee asks first, naming what changes.
    await page.goto(`/admin/accounts/${state.demo.accountId}`);
    await fees.getByRole("button", { name: "Remove" }).click();
    await expect(page.getByRole("dialog")).toContainText("carry no 2.5% fee");
    await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
    await expect(fees.getByTestId("admin-fees")).toContainText("No fee");
    expect(errors).toEqual([]);
  } finally {
    // Leave the demo account as the other journeys expect it.
    await withDb(state, async (db) => {
      await db.query(`UPDATE "Account" SET name = 'Demo platform', "logoUrl" = NULL WHERE id = $1`, [state.demo.accountId]);
      await db.query(`UPDATE "FeeConfig" SET active = false WHERE "accountId" = $1 AND "clientId" IS NULL`, [state.demo.accountId]);
    });
  }
});

test("a normal user sees no admin link; a request's page marks Payments; the lockout says how long", async ({ page, state, shot }) => {
  const email = `plain-${Date.now()}@e2e.duebill.test`;
  await register(state, email, "plain-account-pass");
  await signIn(page, email, "plain-account-pass", "/dashboard");
  await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Admin" })).toHaveCount(0);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  await signIn(page, DEMO.email, DEMO.password, "/dashboard");
  await expect(page.getByRole("link", { name: "Admin" })).toBeVisible();
  const link = await createLink(state, { requests: [{ amount: "3" }], destinationId: state.demo.destinationId, reference: "NAV-1" });
  await page.goto(`/dashboard/requests/${link.requestIds[0]}`);
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  await expect(nav.getByRole("link", { name: "Payments" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Overview" })).not.toHaveAttribute("aria-current", "page");
  await shootBoth(page, shot, "04-request-nav");
  await page.getByRole("button", { name: "Sign out" }).click();

  // Five wrong passwords (through /v1: one lockout per email, whichever door), then the sign-in page
  // says for how long, as /v1 does — with its code kept.
  const locked = `locked-${Date.now()}@e2e.duebill.test`;
  const attempt = () =>
    fetch(`${state.baseUrl}/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: locked, password: "not-the-password" }),
    });
  for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(401);
  const api = await attempt();
  expect(api.status).toBe(429);
  expect(await api.json()).toMatchObject({ code: "rate_limited", message: "Too many failed attempts. Try again in 15 minutes." });
  await page.goto("/sign-in");
  const card = page.getByRole("region", { name: "With email" });
  await card.getByLabel("Email").fill(locked);
  await card.getByLabel("Password").fill("not-the-password");
  await card.getByRole("button", { name: "Sign in" }).click();
  await expect(card.getByRole("alert")).toHaveText(/^Too many failed attempts\. Try again in 1[45] minutes\.$/);
  await shot("admin-05-lockout-1280");
});
