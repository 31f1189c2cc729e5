/**
 * Issue 24 (auth), in Debian's Chromium against the production build:
 * - a wallet sign-in's cookie lives as long as the session may (24 h), not 15 minutes: before the
 *   fix the browser dropped it at sign-in + 15 minutes however active the session was (the idle
 *   rule itself slides on the server: tests/auth/auth.test.ts);
 * - /register answers an email that already has an account like a new one, and the form then says
 *   to sign in instead, without telling whether the account exists.
 * The wallet is the suite's injected EIP-6963 test wallet (standing in for a browser wallet).
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

const VIEWPORTS = [
  { name: "1280", width: 1280, height: 900 },
  { name: "390", width: 390, height: 844 },
] as const;

async function shootBoth(page: Page, shot: (n: string) => Promise<void>, name: string): Promise<void> {
  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${vp.width} px`).toBeLessThanOrEqual(0);
    await shot(`auth-${vp.name}-${name}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a wallet sign-in keeps its session cookie for the session's 24 h, not 15 minutes (regression)", async ({ page, wallet, shot }) => {
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "EVM wallet" }).click();
  await page.getByRole("button", { name: "Connect wallet" }).click();
  // The first pick in a freshly opened modal was once lost on a loaded CI machine (the modal stayed
  // on its list, "Connecting…"): pick again while the modal still offers the wallet, as a user would.
  await expect(async () => {
    const pick = page.getByRole("dialog").getByRole("button", { name: /Duebill Test Wallet/ });
    if (await pick.isVisible()) await pick.click();
    await expect(page.getByRole("dialog")).toContainText("Verify your account", { timeout: 5_000 });
  }).toPass({ timeout: 40_000 });
  const before = Date.now();
  // RainbowKit's SIWE for next-auth: the page sign-in also sets the /v1 cookie of the same Session row.
  await page.getByRole("dialog").getByRole("button", { name: "Sign message" }).click();
  await page.waitForURL(/\/dashboard/);
  expect(wallet.calls.some((c) => c.method === "personal_sign")).toBe(true);
  const cookie = (await page.context().cookies()).find((c) => c.name === "session_token");
  expect(cookie, "the session cookie").toBeDefined();
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");
  const lifetimeMin = ((cookie?.expires ?? 0) * 1000 - before) / 60_000;
  // 24 h (± clock skew and the sign-in's own duration); before the fix: 15 minutes.
  expect(lifetimeMin).toBeGreaterThan(24 * 60 - 5);
  expect(lifetimeMin).toBeLessThanOrEqual(24 * 60 + 1);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await shootBoth(page, shot, "wallet-signed-in");
});

test("/register answers an existing email like a new one; the form says to sign in instead", async ({ page, shot }) => {
  // The demo user exists (seeded); registering its email with another password changes nothing.
  await page.goto("/register");
  await page.getByLabel("Email", { exact: true }).fill("demo@duebill.local");
  await page.getByLabel("Password", { exact: true }).fill("someone else's password");
  await page.getByRole("button", { name: "Create account" }).click();
  const alert = page.locator("p[role=alert]");
  await expect(alert).toHaveText("Could not sign you in with this email and password. If you already have an account, sign in instead.");
  await expect(page).toHaveURL(/\/register/);
  await expect(page.locator("body")).not.toContainText(/already exists/i);
  await shootBoth(page, shot, "register-existing-email");

  // The owner's password still signs in (nothing was changed).
  await page.goto("/sign-in");
  await page.getByLabel("Email", { exact: true }).fill("demo@duebill.local");
  await page.getByLabel("Password", { exact: true }).fill("duebill-demo");
  await page
    .getByRole("button", { name: /Sign in/ })
    .first()
    .click();
  await page.waitForURL(/\/dashboard/);
  await page.context().clearCookies();

  // A new email: created and signed in at once.
  const email = `new-${Date.now()}@example.com`;
  await page.goto("/register");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("long enough password");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(/\/dashboard/);
});
