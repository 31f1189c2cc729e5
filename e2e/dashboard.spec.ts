/**
 * Signing in to the dashboard and using it as a platform would, through next-auth: email/password
 * (the demo account), a wallet through RainbowKit's SIWE for next-auth (the EIP-6963 test wallet
 * signs), TronLink (the Tron test wallet signs TRON message v2),
 * making a payment link and seeing it paid, and signing out (the session is revoked on the server).
 */
import { createWalletClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { hexToTron, tronToHex } from "@/lib/chain/address";
import { activateDestination } from "./support/api";
import { expect, test } from "./support/fixtures";
import { exposeTronSigner, installTronStub } from "./support/tron-stub";

const DEMO = { email: "demo@duebill.local", password: "duebill-demo" };

for (const vp of [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
]) {
  test(`${vp.name}: sign in with email, make a link, see it paid, sign out`, async ({ page, state, shot }) => {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    await activateDestination(state, state.demo.destinationId);

    // Signed out, the dashboard asks to sign in and comes back afterwards.
    await page.goto("/dashboard/links");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fdashboard%2Flinks$/);
    await shot(`dashboard-${vp.name}-01-sign-in`);
    const email = page.getByRole("region", { name: "With email" });
    await email.getByLabel("Email").fill(DEMO.email);
    await email.getByLabel("Password").fill("short");
    await email.getByRole("button", { name: "Sign in" }).click();
    await expect(email.getByText("Password must be 8 to 100 characters")).toBeVisible();
    await email.getByLabel("Password").fill("wrong-password");
    await email.getByRole("button", { name: "Sign in" }).click();
    await expect(email.getByRole("alert")).toHaveText("Invalid email or password");
    await email.getByLabel("Password").fill(DEMO.password);
    await email.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/dashboard\/links$/);

    // A link from the form; the payer pays it; the list shows it paid.
    const amount = vp.name === "desktop" ? "7.25" : "3.5";
    await page.getByLabel(/^Amount/).fill("12,5");
    await page.getByRole("button", { name: "Create payment link" }).click();
    await expect(page.getByRole("region", { name: "New payment link" })).toContainText(
      'Amount must be a positive decimal string such as "12.50"',
    );
    await page.getByLabel(/^Amount/).fill(amount);
    await page.getByLabel("Reference (optional)").fill(`DASH-${vp.name}`);
    await page.getByRole("button", { name: "Create payment link" }).click();
    const created = page.getByTestId("created-link");
    await expect(created).toContainText("/pay/");
    await shot(`dashboard-${vp.name}-02-link-created`);
    const token = ((await created.textContent()) ?? "").split("/pay/")[1]!;
    const payer = privateKeyToAccount(state.devnet.payer.privateKey);
    const plan = (await (await fetch(`${state.baseUrl}/v2/secure-payments/${token}/pay?wallet=${payer.address}`)).json()) as {
      transactions: { to: `0x${string}`; data: `0x${string}` }[];
    };
    const wallet = createWalletClient({ account: payer, transport: http(state.devnet.rpcUrl) });
    for (const tx of plan.transactions) await wallet.sendTransaction({ chain: null, to: tx.to, data: tx.data });
    await expect
      .poll(
        async () => {
          await page.reload();
          return page
            .getByTestId("link-row")
            .filter({ hasText: `DASH-${vp.name}` })
            .textContent();
        },
        { timeout: 20_000 },
      )
      .toContain("Paid");
    await shot(`dashboard-${vp.name}-03-links`);

    await page.getByRole("link", { name: "Overview" }).click();
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Received (net of refunds), by currency and network" })).toContainText("USDC");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(`dashboard-${vp.name}-04-overview`);

    // The payments list: the API's search, filtered by the link's reference.
    await page.getByRole("link", { name: "Payments" }).click();
    await page.getByLabel("reference").fill(`DASH-${vp.name}`);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByTestId("payments")).toContainText(`${amount} USDC`);
    await expect(page.getByRole("region", { name: "1 payment" })).toBeVisible();
    await page.getByLabel("From (UTC)").fill("yesterday");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "From (UTC) must be an ISO 8601 date" })).toBeVisible();
    // The API's bounds hold on the page too: each input stops at the query's maxLength, and a longer
    // value pasted into the URL is refused in words (never reaching the search, never a 500).
    await expect(page.getByLabel("Your reference")).toHaveAttribute("maxlength", "255");
    const long = await page.goto(`/dashboard/payments?reference=${"x".repeat(10_000)}`);
    expect(long?.status()).toBe(200);
    await expect(page.getByRole("alert").filter({ hasText: "Your reference" })).toHaveText("Your reference: at most 255 characters");
    await page.getByRole("link", { name: "Clear" }).click();
    await shot(`dashboard-${vp.name}-05-payments`);

    // Sign-out revokes the session on the server: the old cookie no longer works anywhere.
    const cookie = (await page.context().cookies()).find((c) => c.name === "session_token")!.value;
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    const after = await fetch(`${state.baseUrl}/v1/auth/session`, { headers: { authorization: `Bearer ${cookie}` } });
    expect(after.status).toBe(401);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fdashboard$/);
  });
}

test("sign in with a browser wallet through RainbowKit's SIWE for next-auth: the test wallet signs; dashboard; sign out", async ({
  page,
  wallet,
  state,
  shot,
}) => {
  await page.goto("/sign-in");
  const card = page.getByRole("region", { name: "With a wallet" });
  await card.getByRole("button", { name: "EVM wallet" }).click();
  await card.getByRole("button", { name: "Connect wallet" }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Duebill Test Wallet/ })
    .click();
  // RainbowKit's connect-and-sign: connected, the modal asks for the SIWE signature (nonce: next-auth's CSRF token).
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Verify your account");
  await shot("dashboard-desktop-05-wallet-connected");
  await dialog.getByRole("button", { name: "Sign message" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const signed = wallet.calls.find((c) => c.method === "personal_sign");
  expect(signed).toBeDefined();
  await expect(page.getByRole("banner")).toContainText(wallet.address.toLowerCase().slice(0, 10));
  const jwt = (await page.context().cookies()).find((c) => c.name === "next-auth.session-token");
  expect(jwt?.httpOnly).toBe(true);
  const session = (await page.evaluate(() => fetch("/api/auth/session").then((r) => r.json()))) as { principal?: { sessionKind: string } };
  expect(session.principal?.sessionKind).toBe("wallet");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  // The row is revoked: the same JWT, sent again, is no page session any more.
  await page.context().addCookies([{ name: "next-auth.session-token", value: jwt!.value, url: state.baseUrl }]);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fdashboard$/);
});

test("sign in with TronLink (the Tron test wallet signs TRON message v2) through next-auth; dashboard; sign out", async ({
  page,
  shot,
}) => {
  const key = generatePrivateKey();
  const address = hexToTron(privateKeyToAccount(key).address);
  await exposeTronSigner(page, key);
  await installTronStub(page, { address, hexAddress: `41${tronToHex(address).slice(2)}` });
  await page.goto("/sign-in?next=%2Fdashboard%2Fpayments");
  const card = page.getByRole("region", { name: "With a wallet" });
  await card.getByRole("button", { name: "TronLink" }).click();
  await card.getByRole("button", { name: "Connect TronLink" }).click();
  await expect(page.getByTestId("sign-in-address")).toHaveText(address);
  const signed = page.waitForRequest((r) => r.url().endsWith("/api/auth/callback/tron") && r.method() === "POST");
  await card.getByRole("button", { name: "Sign in with this wallet" }).click();
  expect((await signed).postData()).toContain("signature=0x");
  await expect(page).toHaveURL(/\/dashboard\/payments$/);
  // (The stub's call log starts over on the new page: the server's own answer is the proof.)
  const session = (await page.evaluate(() => fetch("/api/auth/session").then((r) => r.json()))) as { principal?: { sessionKind: string } };
  expect(session.principal?.sessionKind).toBe("wallet");
  await expect(page.getByRole("banner")).toContainText(address.slice(0, 10));
  await shot("dashboard-desktop-06-tron-signed-in");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fdashboard$/);
});

test("API keys and client IDs: created (the key shown once), revoked; a revoked key gets 401 from the API", async ({
  page,
  state,
  shot,
}) => {
  await page.goto("/sign-in?next=%2Fdashboard%2Fkeys");
  const email = page.getByRole("region", { name: "With email" });
  await email.getByLabel("Email").fill(DEMO.email);
  await email.getByLabel("Password").fill(DEMO.password);
  await email.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard\/keys$/);

  const keys = page.getByRole("region", { name: "API keys" });
  await keys.getByLabel("Name").fill("e2e server");
  await keys.getByRole("button", { name: "Create API key" }).click();
  const secret = ((await page.getByTestId("new-api-key").textContent()) ?? "").trim();
  expect(secret).toMatch(/^dbk_/);
  expect((await fetch(`${state.baseUrl}/v2/currencies`, { headers: { "x-api-key": secret } })).status).toBe(200);
  await keys.getByRole("button", { name: /Revoke API key e2e server/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  await expect(keys.getByTestId("api-keys")).toContainText("revoked");
  await expect
    .poll(async () => (await fetch(`${state.baseUrl}/v2/currencies`, { headers: { "x-api-key": secret } })).status, { timeout: 10_000 })
    .toBe(401);

  const clients = page.getByRole("region", { name: "Client IDs" });
  await clients.getByLabel("Label").fill("Shop frontend");
  await clients.getByLabel(/Allowed origins/).fill("http://shop.example");
  await clients.getByRole("button", { name: "Create client ID" }).click();
  await expect(clients).toContainText(/Allowed origins: .*must use https/);
  await clients.getByLabel(/Allowed origins/).fill("https://shop.example");
  await clients.getByRole("button", { name: "Create client ID" }).click();
  await expect(clients.getByTestId("client-ids")).toContainText("https://shop.example");
  await shot("dashboard-desktop-06-keys");
  await clients.getByRole("button", { name: "Revoke client ID Shop frontend" }).first().click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke client ID" }).click();
  await expect(
    clients
      .getByTestId("client-ids")
      .getByText(/^revoked · https:\/\/shop\.example/)
      .first(),
  ).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot("dashboard-phone-06-keys");
});
