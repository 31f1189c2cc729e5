/**
 * Every page passes axe-core's WCAG 2 A/AA rules (wcag2a, wcag2aa, wcag21a, wcag21aa) at 1280 and
 * 390 px, and logs no console error (issue 27, item 7): the public pages, sign-in and register,
 * onboarding with a real link intent, a pending and a paid payment link, every dashboard page
 * signed in, and every /admin page as an operator. A failure lists each violation by rule, its
 * targets and axe's summary, so it can be fixed from the message alone.
 */
import { createHash, randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { activateDestination, createLink, type E2eState, offerRefund, withDb } from "./support/api";
import { settledAxe } from "./support/axe";
import { expect, test } from "./support/fixtures";

const DEMO = { email: "demo@duebill.local", password: "duebill-demo" };
const WIDTHS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** Console errors and uncaught exceptions of a page, from now on. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console.error: ${msg.text()} (${msg.location().url})`);
  });
  page.on("pageerror", (err) => errors.push(`uncaught: ${err.message}`));
  return errors;
}

async function expectAccessible(page: Page, name: string): Promise<void> {
  const { violations } = await settledAxe(page, TAGS);
  const report = violations.flatMap((v) =>
    v.nodes.map(
      (n) => `- [${v.impact}] ${v.id}: ${v.help}\n    at ${n.target.join(" ")}\n    ${n.failureSummary?.replaceAll("\n", "\n    ")}`,
    ),
  );
  expect(report, `${name}: ${report.length} axe violation(s)\n${report.slice(0, 40).join("\n")}`).toEqual([]);
}

/** Loads `path` at both widths and checks each; `ready` waits for the page's own content. */
async function checkPage(page: Page, path: string, name: string, ready?: (page: Page) => Promise<void>): Promise<void> {
  const errors = collectErrors(page);
  for (const vp of WIDTHS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    const res = await page.goto(path);
    expect(res?.status(), `${name}: HTTP status`).toBeLessThan(400);
    await page.waitForLoadState("networkidle");
    if (ready) await ready(page);
    await expectAccessible(page, `${name} at ${vp.width} px`);
  }
  expect(errors, `${name}: console errors`).toEqual([]);
}

async function signIn(page: Page, next: string): Promise<void> {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  const card = page.getByRole("region", { name: "With email" });
  await card.getByLabel("Email").fill(DEMO.email);
  await card.getByLabel("Password").fill(DEMO.password);
  await card.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[/?]/g, "\\$&")}$`));
}

/** An orchestrator key written as lib/accounts/issue-credentials.ts writes it (operators issue them). */
async function orchestratorKey(state: E2eState): Promise<string> {
  const suffix = randomBytes(6).toString("hex");
  const accountId = `acc_e2e_a11y_${suffix}`;
  const key = `orc_${randomBytes(24).toString("base64url")}`;
  await withDb(state, async (db) => {
    await db.query(`INSERT INTO "Account" ("id", "name", "updatedAt") VALUES ($1, 'A11y orchestrator', now())`, [accountId]);
    await db.query(`INSERT INTO "OrchestratorKey" ("id", "accountId", "name", "prefix", "keyHash") VALUES ($1, $2, 'e2e', $3, $4)`, [
      `okey_${suffix}`,
      accountId,
      key.slice(0, 10),
      createHash("sha256").update(key, "utf8").digest("hex"),
    ]);
  });
  return key;
}

/**
 * A request of the demo account paid 6 USDC (its payment written as detection writes it), with a
 * refund of 2 confirmed and an offer of 1 (an overpayment's excess): the request page's refund
 * states — the offer at the top, the Refunds panel with its totals, form and history — and the
 * payments list's badge.
 */
async function refundedRequest(state: E2eState): Promise<string> {
  const link = await createLink(state, { requests: [{ amount: "6" }], destinationId: state.demo.destinationId, reference: "A11Y-REFUND" });
  const requestId = link.requestIds[0]!;
  const payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
  await withDb(state, async (db) => {
    await db.query(
      `INSERT INTO "Payment" ("id", "requestId", "accountId", "network", "txHash", "logIndex", "blockNumber", "blockHash", "payer", "payee",
         "tokenAddress", "amount", "feeAmount", "proxyAddress", "blockTime")
       SELECT $2, r."id", r."accountId", r."network", $3, 0, 1, $4, $5, r."payee", r."tokenAddress", 6000000, 0, $6, now()
       FROM "PaymentRequest" r WHERE r."id" = $1`,
      [
        requestId,
        `pay_a11y_${randomBytes(6).toString("hex")}`,
        `0x${randomBytes(32).toString("hex")}`,
        `0x${"0".repeat(64)}`,
        payer,
        state.devnet.erc20FeeProxy,
      ],
    );
    // Counted in the daily rollup too, as detection's insertPayment does: the overview stays the payments' sum.
    await db.query(
      `INSERT INTO "PaymentDaily" ("accountId", "day", "network", "currency", "kind", "count", "amount")
       SELECT r."accountId", current_date, r."network", r."paymentCurrency", r."kind", 1, 6000000 FROM "PaymentRequest" r WHERE r."id" = $1
       ON CONFLICT ("accountId", "day", "network", "currency", "kind")
       DO UPDATE SET "count" = "PaymentDaily"."count" + 1, "amount" = "PaymentDaily"."amount" + EXCLUDED."amount"`,
      [requestId],
    );
    await db.query(`UPDATE "PaymentRequest" SET "status" = 'paid', "amountPaid" = "expectedAmount", "payer" = $2 WHERE "id" = $1`, [
      requestId,
      payer,
    ]);
  });
  const refunded = offerRefund(state, { requestId, to: payer, units: 2_000_000n, reason: "excess" });
  await withDb(state, async (db) => {
    await db.query(
      `UPDATE "Refund" SET "reason" = 'requested', "status" = 'confirmed', "txHash" = $2, "logIndex" = 0, "blockNumber" = 2, "blockHash" = $3,
         "blockTime" = now(), "sentAt" = now(), "confirmedAt" = now() WHERE "id" = $1`,
      [refunded, `0x${randomBytes(32).toString("hex")}`, `0x${"0".repeat(64)}`],
    );
    await db.query(`UPDATE "PaymentRequest" SET "amountRefunded" = 2000000 WHERE "id" = $1`, [requestId]);
  });
  offerRefund(state, { requestId, to: payer, units: 1_000_000n, reason: "excess" });
  return requestId;
}

test.describe("axe-core WCAG 2 A/AA, 0 violations at 1280 and 390 px, no console errors", () => {
  test("public pages: home, /docs, sign-in, register", async ({ page }) => {
    await checkPage(page, "/", "home");
    await checkPage(page, "/docs", "/docs", async (p) => {
      await expect(p.locator("[data-operation]").first()).toBeVisible();
    });
    await checkPage(page, "/sign-in", "sign-in");
    await checkPage(page, "/register", "register");
  });

  test("onboarding from a link intent", async ({ page, state }) => {
    const key = await orchestratorKey(state);
    const res = await fetch(`${state.baseUrl}/v2/orchestrators/client-id-link-intents`, {
      method: "POST",
      headers: { "x-orchestrator-key": key, "content-type": "application/json" },
      body: JSON.stringify({ clientIdName: "A11y shop", domains: ["https://a11y.example"], externalId: `a11y-${Date.now()}` }),
    });
    const body = (await res.json()) as { url: string };
    expect(res.status, JSON.stringify(body)).toBe(201);
    const url = new URL(body.url);
    await checkPage(page, `${url.pathname}${url.search}`, "onboarding");
  });

  test("payment link: pending and paid", async ({ page, state }) => {
    await activateDestination(state, state.demo.destinationId);
    const pending = await createLink(state, {
      requests: [{ amount: "12.50" }],
      destinationId: state.demo.destinationId,
      reference: "A11Y-1",
    });
    await checkPage(page, `/pay/${pending.token}`, "pay (pending)");
    const paid = await createLink(state, { requests: [{ amount: "7" }], destinationId: state.demo.destinationId, reference: "A11Y-2" });
    await withDb(state, async (db) => {
      await db.query(`UPDATE "PaymentRequest" SET "status" = 'paid', "amountPaid" = "expectedAmount" WHERE "id" = ANY($1)`, [
        paid.requestIds,
      ]);
      await db.query(`UPDATE "SecurePayment" SET "status" = 'completed' WHERE "token" = $1`, [paid.token]);
    });
    await checkPage(page, `/pay/${paid.token}`, "pay (paid)");
  });

  test("dashboard pages, signed in", async ({ page, state }) => {
    await activateDestination(state, state.demo.destinationId);
    const link = await createLink(state, { requests: [{ amount: "3" }], destinationId: state.demo.destinationId, reference: "A11Y-3" });
    const refunded = await refundedRequest(state);
    await signIn(page, "/dashboard");
    for (const path of [
      "/dashboard",
      "/dashboard/payments",
      "/dashboard/links",
      "/dashboard/keys",
      "/dashboard/webhooks",
      "/dashboard/recurring",
      "/dashboard/settings",
      `/dashboard/requests/${link.requestIds[0]}`,
      "/dashboard/payments?reference=A11Y-REFUND",
    ])
      await checkPage(page, path, path);
    // A paid request with a confirmed refund and an offered one: the offer, the Refunds panel (totals, form, history).
    await checkPage(page, `/dashboard/requests/${refunded}`, "request with refunds", async (p) => {
      await expect(p.getByTestId("refund-offer")).toBeVisible();
      await expect(p.getByRole("region", { name: "Refunds" }).getByTestId("refund")).toHaveCount(1);
    });
  });

  test("admin pages, as an operator", async ({ page, state }) => {
    await signIn(page, "/admin");
    for (const path of ["/admin", "/admin/accounts", `/admin/accounts/${state.demo.accountId}`, "/admin/audit"])
      await checkPage(page, path, path);
  });
});

test("the check fails on what it must catch: low contrast and a scrollable block a keyboard cannot reach", async ({ page }) => {
  await page.setContent(`<!doctype html><html lang="en"><head><title>x</title></head><body><main>
    <p style="color:#aaa;background:#fff">Pale text</p>
    <pre style="overflow:auto;width:60px;height:30px">${"long line of code ".repeat(20)}</pre></main></body></html>`);
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  expect(violations.map((v) => v.id).sort()).toEqual(["color-contrast", "scrollable-region-focusable"]);
});
