/**
 * The rest of the dashboard and the operator's side, as their users would use them: webhooks
 * (register with the secret shown once, a signed test arrives, the delivery log with each attempt,
 * send again), a paid link's request page with its payment and its webhook delivery, recurring and
 * settings; the admin area (a non-admin gets 404 on every page, an admin issues an orchestrator key
 * that works and restricts a client ID that the API then refuses, both in the audit log); another
 * account sees none of this account's data; a server action from a foreign Origin is refused.
 */
import type { Page } from "@playwright/test";
import { createWalletClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { activateDestination, createLink, type E2eState, withDb } from "./support/api";
import { expect, test } from "./support/fixtures";
import { startReceiver } from "./support/receiver";

const DEMO = { email: "demo@duebill.local", password: "duebill-demo" };
const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function signIn(page: Page, email: string, password: string, next: string): Promise<void> {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  const card = page.getByRole("region", { name: "With email" });
  await card.getByLabel("Email").fill(email);
  await card.getByLabel("Password").fill(password);
  await card.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`${next.replace(/[/?]/g, "\\$&")}$`));
}

/** A second platform: its own account, registered through /v1 like any newcomer. */
async function registerOtherAccount(state: E2eState): Promise<{ email: string; password: string }> {
  const email = `other-${Date.now()}@e2e.duebill.test`;
  const password = "other-account-pass";
  const res = await fetch(`${state.baseUrl}/v1/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(201);
  return { email, password };
}

/** Both widths: no sideways scroll, and a screenshot of each. */
async function shootBoth(page: Page, shot: (n: string) => Promise<void>, name: string): Promise<void> {
  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${vp.width} px`).toBeLessThanOrEqual(0);
    await shot(`dashboard-${vp.name}-${name}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("webhooks: registered (secret once), a signed test arrives, the delivery log shows every attempt, send again; a paid link's request page shows its payment and delivery", async ({
  page,
  state,
  shot,
}) => {
  const receiver = await startReceiver();
  try {
    await activateDestination(state, state.demo.destinationId);
    // Wallet code (wagmi, RainbowKit) loads on /sign-in when a wallet is chosen, never on the dashboard.
    const scripts: string[] = [];
    page.on("response", async (r) => {
      if (r.url().endsWith(".js")) scripts.push(await r.text().catch(() => ""));
    });
    await page.goto("/sign-in");
    await page.getByRole("region", { name: "With a wallet" }).getByRole("button", { name: "EVM wallet" }).click();
    await expect.poll(() => scripts.some((js) => js.includes("WagmiProvider"))).toBe(true);
    await signIn(page, DEMO.email, DEMO.password, "/dashboard/webhooks");
    scripts.length = 0;
    for (const path of ["/dashboard", "/dashboard/payments", "/dashboard/webhooks"]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
    }
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((js) => js.includes("WagmiProvider"))).toHaveLength(0);
    const register = page.getByRole("region", { name: "Register a webhook" });
    await register.getByLabel(/Endpoint URL/).fill("https://user:pass@hooks.example/hook");
    await register.getByLabel("Client ID").selectOption(state.demo.clientId);
    await register.getByRole("button", { name: "Register webhook" }).click();
    await expect(register).toContainText("Endpoint URL: URL must not contain credentials");
    await register.getByLabel(/Endpoint URL/).fill(receiver.url);
    await register.getByLabel("Client ID").selectOption(state.demo.clientId);
    await register.getByRole("button", { name: "Register webhook" }).click();
    const secret = ((await page.getByTestId("webhook-secret").textContent()) ?? "").trim();
    expect(secret.length).toBeGreaterThan(20);
    receiver.secret.value = secret;
    await shootBoth(page, shot, "07-webhook-registered");
    await page.reload();
    await expect(page.getByTestId("webhook-secret")).toHaveCount(0);

    const endpoint = page.getByRole("region", { name: receiver.url });
    await expect(endpoint.getByTestId("webhook-state")).toContainText("Active");
    // "Send test event" sits beside the endpoint and is sent at once.
    await endpoint.getByRole("combobox", { name: "Test event" }).selectOption("payment.confirmed");
    await endpoint.getByRole("button", { name: "Send test event" }).click();
    await expect(endpoint.getByTestId("test-result")).toContainText("HTTP 200");
    await expect.poll(() => receiver.received.filter((r) => r.valid).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    await expect
      .poll(
        async () => {
          await page.reload();
          return endpoint.getByTestId("delivery").first().textContent();
        },
        { timeout: 20_000 },
      )
      .toMatch(/succeeded[\s\S]*#1[\s\S]*HTTP 200/);
    await endpoint.getByRole("button", { name: "Send again: payment.confirmed" }).first().click();
    await expect
      .poll(
        async () => {
          await page.reload();
          return endpoint.getByTestId("delivery").first().textContent();
        },
        { timeout: 20_000 },
      )
      .toMatch(/2 attempts[\s\S]*#2/);
    await shootBoth(page, shot, "08-webhooks");

    // A real payment: the request page shows the payment and the payment.confirmed delivery with its attempt.
    const link = await createLink(state, { requests: [{ amount: "4.2" }], destinationId: state.demo.destinationId, reference: "OPS-1" });
    const payer = privateKeyToAccount(state.devnet.payer.privateKey);
    const plan = (await (await fetch(`${state.baseUrl}/v2/secure-payments/${link.token}/pay?wallet=${payer.address}`)).json()) as {
      transactions: { to: `0x${string}`; data: `0x${string}` }[];
    };
    const wallet = createWalletClient({ account: payer, transport: http(state.devnet.rpcUrl) });
    for (const tx of plan.transactions) await wallet.sendTransaction({ chain: null, to: tx.to, data: tx.data });
    await page.goto("/dashboard/payments?reference=OPS-1");
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId("payments").count();
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    await page.getByRole("link", { name: "OPS-1" }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/requests/${link.requestIds[0]}$`));
    await expect(page.getByTestId("request-status")).toHaveText("Paid");
    await expect(page.getByTestId("request-payments")).toContainText("4.2 USDC");
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByRole("region", { name: "Webhook deliveries" }).textContent();
        },
        { timeout: 20_000 },
      )
      .toMatch(/payment\.confirmed[\s\S]*succeeded[\s\S]*HTTP 200/);
    expect(receiver.received.some((r) => r.valid && (r.body as { requestId?: string }).requestId === link.requestIds[0])).toBe(true);
    await shootBoth(page, shot, "09-request");

    // Recurring: a schedule paused for lack of funds shows why, and can be resumed or cancelled.
    await withDb(state, (db) =>
      db.query(
        `INSERT INTO "RecurringSchedule" ("id","accountId","network","chainId","contract","token","invoiceCurrency","paymentCurrency",
           "frequency","startDate","payer","payee","amount","totalPayments","dueTimes","deadline","nonce","scheduleId","status",
           "processedPayments","failureCode","failureReason","failureCount","nextDueAt","updatedAt")
         VALUES ($1,$2,'sepolia',11155111,'0x0165878A594ca255338adfa4d48449f69242Eb8F','0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
           'USDC-sepolia','USDC-sepolia','MONTHLY',now(),'0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
           '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',25000000,12,$3,$4,'1',$5,'paused',2,'insufficient_balance',
           'The payer holds 3.10 USDC; payment 3 needs 25 USDC',1,now(),now())`,
        [
          `sch_e2e_${Date.now()}`,
          state.demo.accountId,
          Array.from({ length: 12 }, (_, i) => Math.floor(Date.now() / 1000) + i * 2_592_000),
          Math.floor(Date.now() / 1000) + 400 * 86_400,
          `0x${"cd".repeat(32)}`,
        ],
      ),
    );
    await page.getByRole("link", { name: "Recurring" }).click();
    await expect(page.getByRole("heading", { name: "Recurring payouts" })).toBeVisible();
    const schedule = page.getByTestId("schedule").first();
    await expect(schedule.getByRole("alert")).toContainText("Low balance: The payer holds 3.10 USDC");
    await expect(schedule).toContainText("2 of 12 paid");
    await shootBoth(page, shot, "10-recurring");
    await schedule.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel schedule" }).click();
    await expect(schedule).toContainText("cancelled");
    await page.getByRole("link", { name: "Settings" }).click();
    await expect(page.getByTestId("active-destination")).toContainText("USDC");
    const fee = page.getByRole("region", { name: "Platform fee on payment links" });
    await fee.getByLabel(/^Fee \(basis points/).fill("250");
    await fee.getByLabel("Fee address (EVM)").fill("0x123");
    await fee.getByRole("button", { name: "Save fee" }).click();
    await expect(fee).toContainText("Fee address (EVM) must be a checksummed 0x address");
    await fee.getByLabel("Fee address (EVM)").fill(privateKeyToAccount(state.devnet.payer.privateKey).address);
    await fee.getByRole("button", { name: "Save fee" }).click();
    await expect(fee.getByTestId("fee-summary")).toContainText("2.5%");
    await shootBoth(page, shot, "11-settings");
    await fee.getByRole("button", { name: "Remove fee" }).click();
    // It asks first, naming what changes.
    await expect(page.getByRole("dialog")).toContainText("carry no 2.5% fee");
    await page.getByRole("dialog").getByRole("button", { name: "Remove fee" }).click();
    await expect(fee.getByTestId("fee-summary")).toContainText("No fee");
  } finally {
    await receiver.close();
  }
});

test("admin: a non-admin gets 404 on every /admin page; an operator issues an orchestrator key that works and restricts a client ID the API then refuses; both in the audit log", async ({
  page,
  state,
  shot,
}) => {
  const other = await registerOtherAccount(state);
  await signIn(page, other.email, other.password, "/dashboard");
  for (const path of ["/admin", "/admin/accounts", `/admin/accounts/${state.demo.accountId}`, "/admin/audit"]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByText(state.demo.accountId)).toHaveCount(0);
  }
  await page.context().clearCookies();

  // Two schedules left on base, where nothing can run recurring payouts here (no contract, no relayer
  // key): one still active (never paid), one cancelled whose on-chain cancel cannot be sent.
  const stranded = [`01E2ESTRANDED${Date.now()}`.slice(0, 26), `01E2ECANCELED${Date.now()}`.slice(0, 26)];
  await withDb(state, (db) =>
    db.query(
      `INSERT INTO "RecurringSchedule" ("id", "accountId", "network", "chainId", "contract", "token", "invoiceCurrency", "paymentCurrency",
         "frequency", "startDate", "payer", "payee", "amount", "totalPayments", "dueTimes", "deadline", "nonce", "scheduleId", "status",
         "chainCancel", "cancelError", "updatedAt")
       SELECT v.id, $3, 'base', 8453, '0x0000000000000000000000000000000000000001', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 'USDC-base',
         'USDC-base', 'MONTHLY', now(), '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', 1000000, 3,
         ARRAY[2000000000, 2002592000, 2005184000], 2007776000, '1', '0x' || repeat('ab', 32), v.status::"RecurringScheduleStatus",
         v.cancel::"ChainCancelStatus", v.err, now()
       FROM (VALUES ($1, 'active', NULL, NULL), ($2, 'cancelled', 'pending', 'no relayer can reach the recurring contract on base')) AS v(id, status, cancel, err)`,
      [stranded[0], stranded[1], state.demo.accountId],
    ),
  );
  try {
    await signIn(page, DEMO.email, DEMO.password, "/admin");
    await expect(page.getByRole("heading", { name: "Health of the background work" })).toBeVisible();
    await expect(page.getByTestId("screening")).toContainText("2024-09-27");
    const recurring = page.getByTestId("recurring-networks");
    // The e2e server has the devnet's recurring contract on sepolia but no relayer key: nothing runs.
    await expect(recurring).toContainText("The executor runs on no network.");
    await expect(recurring).toContainText(
      /Cannot run \(new schedules refused\) on [^:]*\bbase\b[^:]*: no recurring contract, no relayer key/,
    );
    await expect(recurring).toContainText(/Cannot run \(new schedules refused\) on sepolia: no relayer key/);
    await expect(page.getByTestId("recurring-stranded")).toHaveText(/1 live schedule on base, which nothing can run: never paid/);
    await expect(page.getByTestId("recurring-cancels")).toContainText("1 on-chain cancel to confirm on base");
    await shootBoth(page, shot, "12-admin-health");
  } finally {
    await withDb(state, (db) => db.query(`DELETE FROM "RecurringSchedule" WHERE "id" = ANY($1)`, [stranded]));
  }
  await page.getByRole("link", { name: "Accounts" }).click();
  // Accounts come 25 a page, newest first: the demo account is found by searching for it.
  await page.getByRole("searchbox").fill("Demo platform");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("accounts")).toContainText(state.demo.accountId);
  await shootBoth(page, shot, "13-admin-accounts");
  await page.goto(`/admin/accounts/${state.demo.accountId}`);
  await page.getByLabel("Key name").fill("e2e platform");
  await page.getByRole("button", { name: "Issue orchestrator key" }).click();
  const key = ((await page.getByTestId("new-orchestrator-key").textContent()) ?? "").trim();
  expect(key).toMatch(/^orc_/);
  const asOrchestrator = await fetch(`${state.baseUrl}/v2/orchestrators/client-ids`, { headers: { "x-orchestrator-key": key } });
  expect(asOrchestrator.status).toBe(200);

  // A client ID the operator restricts: the API refuses its writes.
  const before = await fetch(`${state.baseUrl}/v2/secure-payments`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-client-id": state.demo.browserClientId, origin: "http://localhost:3000" },
    body: JSON.stringify({ requests: [{ amount: "1" }], destinationId: state.demo.destinationId }),
  });
  expect(before.status).toBe(201);
  const row = page.getByTestId("admin-client-id").filter({ hasText: state.demo.browserClientId });
  await row.getByRole("button", { name: /^Restrict/ }).click();
  await expect(row.getByTestId("client-id-status")).toHaveText("restricted");
  await expect
    .poll(
      async () =>
        (
          await fetch(`${state.baseUrl}/v2/secure-payments`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-client-id": state.demo.browserClientId, origin: "http://localhost:3000" },
            body: JSON.stringify({ requests: [{ amount: "1" }], destinationId: state.demo.destinationId }),
          })
        ).status,
      { timeout: 10_000 },
    )
    .toBe(403);
  await shootBoth(page, shot, "14-admin-account");
  await row.getByRole("button", { name: "Activate" }).click();
  await expect(row.getByTestId("client-id-status")).toHaveText("active");

  // Revoking the orchestrator key asks first, naming it and what stops working; then the key gets 401.
  await page
    .getByRole("button", { name: /^Revoke orchestrator key e2e platform/ })
    .first()
    .click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading")).toHaveText("Revoke orchestrator key “e2e platform”?");
  await expect(dialog).toContainText("Integrations using ‘e2e platform’");
  await expect(dialog).toContainText("get 401 from now on");
  await shootBoth(page, shot, "14b-admin-revoke-dialog");
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByTestId("orchestrator-keys")).toContainText("revoked");
  // Within the credential cache's TTL (CREDENTIAL_CACHE_TTL_MS, 5 s: docs/operations/configuration.md), as the
  // restricted client ID above.
  await expect
    .poll(async () => (await fetch(`${state.baseUrl}/v2/orchestrators/client-ids`, { headers: { "x-orchestrator-key": key } })).status, {
      timeout: 10_000,
    })
    .toBe(401);

  await page.getByRole("link", { name: "Audit log" }).click();
  const audit = page.getByTestId("audit");
  await expect(audit).toContainText("orchestrator_key.issue");
  await expect(audit).toContainText("client_id.restrict");
  await expect(audit).toContainText("orchestrator_key.revoke");
  await expect(audit).toContainText(`by user:`);
  await shootBoth(page, shot, "15-admin-audit");
});

test("another account sees none of this account's data on any page; a server action from a foreign Origin is refused", async ({
  page,
  state,
  shot,
}) => {
  await page.goto("/register");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await shootBoth(page, shot, "00-register");
  const link = await createLink(state, { requests: [{ amount: "2" }], destinationId: state.demo.destinationId, reference: "PRIVATE-A" });
  const requestId = link.requestIds[0]!;
  const other = await registerOtherAccount(state);
  await signIn(page, other.email, other.password, "/dashboard");
  const pages = [
    "/dashboard",
    "/dashboard/payments",
    `/dashboard/payments?requestId=${requestId}`,
    "/dashboard/payments?reference=PRIVATE-A",
    "/dashboard/links",
    "/dashboard/recurring",
    "/dashboard/webhooks",
    "/dashboard/keys",
    "/dashboard/settings",
    `/dashboard/requests/${requestId}`,
  ];
  for (const path of pages) {
    const res = await page.goto(path);
    expect([200, 404], path).toContain(res?.status());
    const html = await page.content();
    // (What B typed into a filter is echoed back in the form; anything else of A is a leak.)
    for (const secret of [requestId, link.token, "PRIVATE-A", state.demo.clientId, state.demo.destinationId, "demo@duebill.local"])
      if (!path.includes(secret)) expect(html.includes(secret), `${path} shows ${secret}`).toBe(false);
    if (path.includes("?")) await expect(page.getByText("Nothing matches.")).toBeVisible();
  }
  expect((await page.goto(`/dashboard/requests/${requestId}`))?.status()).toBe(404);

  // Next.js refuses a server action whose Origin is not the app's own (CSRF): a forged sign-out
  // from another site leaves the session alive.
  await page.goto("/dashboard");
  const cookie = (await page.context().cookies()).find((c) => c.name === "session_token")!.value;
  const actionId = await page.evaluate(() => {
    const input = document.querySelector('header form input[name^="$ACTION_ID_"]') as HTMLInputElement | null;
    return input?.name.replace("$ACTION_ID_", "") ?? null;
  });
  expect(actionId).toBeTruthy();
  const form = new FormData();
  form.set(`$ACTION_ID_${actionId}`, "");
  const forged = await fetch(`${state.baseUrl}/dashboard`, {
    method: "POST",
    headers: { cookie: `session_token=${cookie}`, origin: "https://evil.example", "next-action": actionId! },
    body: form,
    redirect: "manual",
  });
  expect(forged.status).toBeGreaterThanOrEqual(400);
  const still = await fetch(`${state.baseUrl}/v1/auth/session`, { headers: { authorization: `Bearer ${cookie}` } });
  expect(still.status).toBe(200);
  // The same action from the app's own page works (the check is the Origin, not the action).
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  expect((await fetch(`${state.baseUrl}/v1/auth/session`, { headers: { authorization: `Bearer ${cookie}` } })).status).toBe(401);
});
