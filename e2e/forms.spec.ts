/**
 * Forms that help (issue 27 item 3), in Chromium as a merchant who mistypes: per form, a bad value
 * keeps what was typed and the error names the field in words next to it (aria-invalid,
 * aria-describedby); an empty required field says "required"; a pasted over-long value is cut at the
 * API's bound (maxLength) or refused in words, without the page overflowing at 390 px. Destructive
 * actions ask first, naming what stops working: "Keep it" changes nothing, confirming does it.
 * Screenshots of each form's error state and of a confirmation dialog at 1280 and 390 px.
 */
import type { Locator, Page } from "@playwright/test";
import { activateDestination, withDb } from "./support/api";
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
    await shot(`forms-${vp.name}-${name}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The input is marked invalid and described by an error that says `text`. */
async function expectFieldError(input: Locator, text: string | RegExp): Promise<void> {
  await expect(input).toHaveAttribute("aria-invalid", "true");
  const ids = ((await input.getAttribute("aria-describedby")) ?? "").split(" ").filter((id) => id.endsWith("-error"));
  expect(ids).toHaveLength(1);
  await expect(input.page().locator(`[id="${ids[0]}"]`)).toHaveText(text);
}

/** Pastes `text` the way a clipboard would (one insertText, as a browser's paste does). */
async function paste(input: Locator, text: string): Promise<void> {
  await input.fill("");
  await input.focus();
  await input.page().keyboard.insertText(text);
}

test("link form: words next to the field, the input kept, required, bounded amount and texts", async ({ page, state, shot }) => {
  await activateDestination(state, state.demo.destinationId);
  await signIn(page, "/dashboard/links");
  const form = page.getByRole("region", { name: "New payment link" });
  const amount = form.getByLabel(/^Amount/);
  const reference = form.getByLabel("Reference (optional)");
  const description = form.getByLabel("Description (optional)");

  await reference.fill("INV-2041");
  await description.fill("Two mugs and a teapot");
  await amount.fill("12,5");
  await form.getByRole("button", { name: "Create payment link" }).click();
  await expectFieldError(amount, 'Amount must be a positive decimal string such as "12.50"');
  await expect(form).not.toContainText("requests.0");
  await expect(amount).toHaveValue("12,5");
  await expect(reference).toHaveValue("INV-2041");
  await expect(description).toHaveValue("Two mugs and a teapot");
  await shootBoth(page, shot, "01-link-error");

  await amount.fill("");
  await form.getByRole("button", { name: "Create payment link" }).click();
  await expectFieldError(amount, "Amount is required");

  // A 44-digit paste is cut at the API's bound (18 + 1 + 6 characters) and still refused in words.
  await paste(amount, "1".repeat(44));
  await expect(amount).toHaveValue("1".repeat(25));
  await form.getByRole("button", { name: "Create payment link" }).click();
  await expectFieldError(amount, "Amount: at most 18 digits before the point and 6 after");
  await paste(description, "d".repeat(900));
  await expect(description).toHaveValue("d".repeat(500));
  await shootBoth(page, shot, "02-link-bounds");

  // A redirect the API refuses (its schema's refinement, checked here in the browser with the same words).
  await amount.fill("12.50");
  await description.fill("Two mugs and a teapot");
  await form.getByLabel(/^Redirect after payment/).fill("ftp://shop.example/thanks");
  await form.getByRole("button", { name: "Create payment link" }).click();
  await expectFieldError(form.getByLabel(/^Redirect after payment/), /^Redirect after payment must be an http\(s\) URL$/);
  await form.getByLabel(/^Redirect after payment/).fill("");
  await form.getByRole("button", { name: "Create payment link" }).click();
  await expect(page.getByTestId("created-link")).toContainText("/pay/");
  // The kit's copy button: it says it copied (the clipboard, or the selection fallback on plain http).
  await page.getByRole("button", { name: "Copy the new link" }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  await expect(amount).toHaveValue("");
  await expect(amount).not.toHaveAttribute("aria-invalid");
});

test("API keys and client IDs: names bounded, words next to the field, revoke asks first naming what stops working", async ({
  page,
  state,
  shot,
}) => {
  await signIn(page, "/dashboard/keys");
  const keys = page.getByRole("region", { name: "API keys" });
  const name = keys.getByLabel("Name");
  await paste(name, `e2e-${"k".repeat(296)}`);
  await expect(name).toHaveValue(`e2e-${"k".repeat(96)}`);
  // Without the maxLength (an old browser, a script), the same bound is a refusal in words.
  await name.evaluate((el) => el.removeAttribute("maxlength"));
  await paste(name, `e2e-${"k".repeat(296)}`);
  await keys.getByRole("button", { name: "Create API key" }).click();
  await expectFieldError(name, "Name: at most 100 characters");
  await expect(name).toHaveValue(`e2e-${"k".repeat(296)}`);
  await shootBoth(page, shot, "03-api-key-error");

  // A 100-character name without spaces fits the list at 390 px.
  await name.fill(`e2e-${"k".repeat(96)}`);
  await keys.getByRole("button", { name: "Create API key" }).click();
  const secret = ((await page.getByTestId("new-api-key").textContent()) ?? "").trim();
  expect(secret).toMatch(/^dbk_/);
  await expect(name).toHaveValue("");

  const revoke = keys.getByRole("button", { name: /Revoke API key e2e-k{96}/ });
  await revoke.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("heading")).toContainText("Revoke API key");
  await expect(dialog).toContainText("gets 401 from now on");
  await shootBoth(page, shot, "04-revoke-key-dialog");
  await dialog.getByRole("button", { name: "Keep it" }).click();
  await expect(dialog).toHaveCount(0);
  expect((await fetch(`${state.baseUrl}/v2/currencies`, { headers: { "x-api-key": secret } })).status).toBe(200);
  await revoke.click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  await expect
    .poll(async () => (await fetch(`${state.baseUrl}/v2/currencies`, { headers: { "x-api-key": secret } })).status, { timeout: 10_000 })
    .toBe(401);
  await expect(revoke).toHaveCount(0);
  // The secret of a revoked key is not left on the page.
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);

  const clients = page.getByRole("region", { name: "Client IDs" });
  const label = clients.getByLabel("Label");
  const origins = clients.getByLabel(/Allowed origins/);
  await origins.fill("https://forms.example");
  await clients.getByRole("button", { name: "Create client ID" }).click();
  await expectFieldError(label, "Label is required");
  await expect(origins).toHaveValue("https://forms.example");
  await paste(label, "L".repeat(300));
  await expect(label).toHaveValue("L".repeat(100));
  await label.fill("Forms shop");
  await origins.fill("http://forms.example");
  await clients.getByRole("button", { name: "Create client ID" }).click();
  await expectFieldError(origins, /^Allowed origins: "http:\/\/forms\.example" must use https/);
  await expect(label).toHaveValue("Forms shop");
  await expect(origins).toHaveValue("http://forms.example");
  await shootBoth(page, shot, "05-client-id-error");
  await origins.fill("https://forms.example");
  await clients.getByRole("button", { name: "Create client ID" }).click();
  await expect(clients.getByTestId("client-ids")).toContainText("https://forms.example");

  const revokeClient = clients.getByRole("button", { name: "Revoke client ID Forms shop" });
  await revokeClient.click();
  await expect(page.getByRole("dialog")).toContainText("refused with 403 from now on");
  await page.getByRole("dialog").getByRole("button", { name: "Keep it" }).click();
  await expect(clients.getByTestId("client-ids").getByText(/^active · https:\/\/forms\.example/)).toBeVisible();
  await revokeClient.click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke client ID" }).click();
  await expect(clients.getByTestId("client-ids").getByText(/^revoked · https:\/\/forms\.example/)).toBeVisible();
});

test("webhook and fee forms: required, words next to the field, input kept, bounded", async ({ page, state, shot }) => {
  await signIn(page, "/dashboard/webhooks");
  const register = page.getByRole("region", { name: "Register a webhook" });
  const url = register.getByLabel(/Endpoint URL/);
  await register.getByLabel("Client ID").selectOption(state.demo.clientId);
  await register.getByRole("button", { name: "Register webhook" }).click();
  await expectFieldError(url, "Endpoint URL is required");
  await url.fill("https://user:pass@hooks.example/hook");
  await register.getByRole("button", { name: "Register webhook" }).click();
  await expectFieldError(url, "Endpoint URL: URL must not contain credentials");
  await expect(register).not.toContainText("url:");
  await expect(url).toHaveValue("https://user:pass@hooks.example/hook");
  await expect(register.getByLabel("Client ID")).toHaveValue(state.demo.clientId);
  await shootBoth(page, shot, "06-webhook-error");
  await paste(url, `https://hooks.example/${"p".repeat(3000)}`);
  expect(((await url.inputValue()) ?? "").length).toBe(2048);

  await page.goto("/dashboard/settings");
  const fee = page.getByRole("region", { name: "Platform fee on payment links" });
  const bps = fee.getByLabel(/^Fee \(basis points/);
  const evm = fee.getByLabel("Fee address (EVM)");
  await bps.fill("");
  await evm.fill("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
  await fee.getByRole("button", { name: "Save fee" }).click();
  await expectFieldError(bps, "Fee (basis points) is required");
  await bps.fill("2.5");
  await evm.fill("0x123");
  await fee.getByRole("button", { name: "Save fee" }).click();
  await expectFieldError(bps, "Fee (basis points) must be an integer from 0 to 10000");
  await expectFieldError(evm, "Fee address (EVM) must be a checksummed 0x address");
  await expect(bps).toHaveValue("2.5");
  await expect(evm).toHaveValue("0x123");
  await paste(fee.getByLabel("Label shown to payers"), "F".repeat(200));
  await expect(fee.getByLabel("Label shown to payers")).toHaveValue("F".repeat(60));
  await shootBoth(page, shot, "07-fee-error");
  // The server's check on top (the EIP-55 checksum): refused under the field, the input kept.
  await bps.fill("250");
  await evm.fill("0x70997970c51812dc3a010c7d01b50e0d17dc79C8");
  await fee.getByRole("button", { name: "Save fee" }).click();
  await expectFieldError(evm, "Fee address (EVM) must be a checksummed 0x address");
  await expect(bps).toHaveValue("250");
});

test("recurring: cancel asks first naming the payments that will not be made; Keep it changes nothing", async ({ page, state, shot }) => {
  const id = `sch_forms_${Date.now()}`;
  await withDb(state, (db) =>
    db.query(
      `INSERT INTO "RecurringSchedule" ("id","accountId","network","chainId","contract","token","invoiceCurrency","paymentCurrency",
         "frequency","startDate","payer","payee","amount","totalPayments","dueTimes","deadline","nonce","scheduleId","status",
         "processedPayments","nextDueAt","updatedAt")
       VALUES ($1,$2,'sepolia',11155111,'0x0165878A594ca255338adfa4d48449f69242Eb8F','0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
         'USDC-sepolia','USDC-sepolia','MONTHLY',now(),'0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
         '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',7000000,6,$3,$4,'2',$5,'paused',1,now(),now())`,
      [
        id,
        state.demo.accountId,
        Array.from({ length: 6 }, (_, i) => Math.floor(Date.now() / 1000) + i * 2_592_000),
        Math.floor(Date.now() / 1000) + 200 * 86_400,
        `0x${"ef".repeat(32)}`,
      ],
    ),
  );
  await signIn(page, "/dashboard/recurring");
  const schedule = page.getByTestId("schedule").filter({ hasText: "7 USDC monthly" }).filter({ hasText: "1 of 6 paid" });
  await schedule.getByRole("button", { name: "Cancel" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading")).toHaveText(/^Cancel the schedule 7 USDC monthly to 0x3C44/);
  await expect(dialog).toContainText("The 5 payments still due are not made");
  await shootBoth(page, shot, "08-cancel-schedule-dialog");
  await dialog.getByRole("button", { name: "Keep it" }).click();
  await expect(dialog).toHaveCount(0);
  const status = async () =>
    withDb(state, async (db) => (await db.query(`SELECT "status" FROM "RecurringSchedule" WHERE "id" = $1`, [id])).rows[0]?.status);
  expect(await status()).toBe("paused");
  await schedule.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel schedule" }).click();
  await expect.poll(status).toBe("cancelled");
  await expect(page.getByTestId("schedule").filter({ hasText: "7 USDC monthly" }).first()).toContainText("cancelled");
});

test("admin's key form and the sign-in form: words next to the field, input kept, bounded", async ({ page, state, shot }) => {
  await page.goto("/sign-in");
  const card = page.getByRole("region", { name: "With email" });
  await card.getByRole("button", { name: "Sign in" }).click();
  await expectFieldError(card.getByLabel("Email"), "Email is required");
  await expectFieldError(card.getByLabel("Password"), "Password is required");
  await card.getByLabel("Email").fill("demo@duebill");
  await card.getByLabel("Password").fill("short");
  await card.getByRole("button", { name: "Sign in" }).click();
  await expectFieldError(card.getByLabel("Email"), "Email must be an email address");
  await expectFieldError(card.getByLabel("Password"), "Password must be 8 to 100 characters");
  await expect(card.getByLabel("Email")).toHaveValue("demo@duebill");
  await expect(card.getByLabel("Password")).toHaveValue("short");
  await shootBoth(page, shot, "09-sign-in-error");
  // The server's answer (a wrong password) keeps both fields too.
  await card.getByLabel("Email").fill(DEMO.email);
  await card.getByLabel("Password").fill("wrong-password");
  await card.getByRole("button", { name: "Sign in" }).click();
  await expect(card.getByRole("alert")).toHaveText("Invalid email or password");
  await expect(card.getByLabel("Email")).toHaveValue(DEMO.email);
  await expect(card.getByLabel("Password")).toHaveValue("wrong-password");
  await card.getByLabel("Password").fill(DEMO.password);
  await card.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto(`/admin/accounts/${state.demo.accountId}`);
  const keyName = page.getByLabel("Key name");
  await paste(keyName, "o".repeat(300));
  await expect(keyName).toHaveValue("o".repeat(100));
  await keyName.evaluate((el) => el.removeAttribute("maxlength"));
  await paste(keyName, "o".repeat(300));
  await page.getByRole("button", { name: "Issue orchestrator key" }).click();
  await expectFieldError(keyName, "Key name: at most 100 characters");
  await expect(keyName).toHaveValue("o".repeat(300));
  await shootBoth(page, shot, "10-admin-key-error");
});
