/**
 * A new email merchant gets paid on Tron without code (issue 27): in Settings it chooses USDT on
 * Tron, connects TronLink (the stand-in extension of e2e/support/tron-stub.ts, loaded only on
 * that click), signs the destination's text with TRON message v2 and sees the Tron destination
 * active. The stub's signatures come from tronweb (Trx.signMessageV2 with the test key), an
 * independent signer, so the server's verification is checked against an outside oracle.
 */
import type { Page } from "@playwright/test";
import { TronWeb, Trx } from "tronweb";
import { generatePrivateKey } from "viem/accounts";
import { withDb } from "./support/api";
import { settledAxe } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { installTronStub, tronStubCalls } from "./support/tron-stub";

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function shootBoth(page: Page, shot: (n: string) => Promise<void>, name: string): Promise<void> {
  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${vp.width} px`).toBeLessThanOrEqual(0);
    const axe = await settledAxe(page, ["wcag2a", "wcag2aa"]);
    expect(
      axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      `${name} at ${vp.width} px`,
    ).toEqual([]);
    await shot(`tron-destination-${vp.name}-${name}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a new email merchant connects TronLink in Settings, signs, and receives USDT on Tron", async ({ page, state, shot }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  const scripts: string[] = [];
  page.on("response", async (r) => {
    if (r.url().endsWith(".js")) scripts.push(await r.text().catch(() => ""));
  });
  const key = generatePrivateKey().slice(2);
  const address = TronWeb.address.fromPrivateKey(key) as string;
  const hexAddress = TronWeb.address.toHex(address) as string;
  await page.exposeFunction("__tronStubSign", async (message: string) => Trx.signMessageV2(message, key));
  await installTronStub(page, { address, hexAddress });

  const email = `tron-day-${Date.now()}@e2e.duebill.test`;
  await page.goto("/register");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("tron day password");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(/\/dashboard$/);

  await page.goto("/dashboard/settings");
  await expect(page.getByTestId("no-destination")).toBeVisible();
  const panel = page.getByRole("region", { name: "Where you get paid" });
  await panel.getByLabel("Receive in").selectOption({ label: "USDT on Tron" });
  await expect(panel).not.toContainText("sign in with TronLink");
  await page.waitForLoadState("networkidle");
  // No TronLink code until the merchant asks for it.
  expect(scripts.filter((js) => js.includes("tron_requestAccounts"))).toHaveLength(0);
  await shootBoth(page, shot, "01-before");

  await panel.getByRole("button", { name: "Connect TronLink" }).click();
  await expect(panel.getByTestId("connected-tron-address")).toHaveText(address, { timeout: 15_000 });
  // A first destination replaces nothing, and the page does not say it would.
  await expect(panel).not.toContainText("replaces your current destination");
  expect(scripts.some((js) => js.includes("tron_requestAccounts"))).toBe(true);
  await shootBoth(page, shot, "02-connected");

  await panel.getByRole("button", { name: "Sign and save" }).click();
  await expect(panel.getByTestId("active-destination")).toContainText("Receiving USDT on Tron", { timeout: 20_000 });
  await expect(panel.getByTestId("active-destination")).toContainText(address.slice(0, 6));
  await shootBoth(page, shot, "03-saved");

  // TronLink was asked for one TRON message v2 signature of the destination's text.
  const signed = (await tronStubCalls(page)).filter((c) => c.method === "signMessageV2");
  expect(signed).toHaveLength(1);
  const text = String(signed[0]!.args.message);
  expect(text).toContain("Register this wallet as the payment destination of");
  expect(text).toContain("for USDT-tron.");
  expect(text).toContain(`Wallet: ${address}`);
  expect(text).toMatch(/^Nonce: [0-9a-f]{32}$/m);

  // Saved as the account's one active destination, its nonce used.
  const rows = await withDb(state, async (db) => {
    const r = await db.query(
      `SELECT d."walletAddress", d."network", d."tokenSymbol", d."active" FROM "PayeeDestination" d
       JOIN "User" u ON u."accountId" = d."accountId" WHERE u."email" = $1`,
      [email],
    );
    return r.rows;
  });
  expect(rows).toEqual([{ walletAddress: address, network: "tron", tokenSymbol: "USDT", active: true }]);
  const used = await withDb(
    state,
    async (db) => (await db.query(`SELECT "usedAt" FROM "WalletChallenge" WHERE "address" = $1 AND "chainKind" = 'tron'`, [address])).rows,
  );
  expect(used).toHaveLength(1);
  expect(used[0].usedAt).not.toBeNull();

  // Changing to USDC on Tron: the same wallet signs again; one destination stays active.
  await panel.getByText("Change where you get paid").click();
  await panel.getByLabel("Change to").selectOption({ label: "USDC on Tron" });
  await panel.getByRole("button", { name: "Connect TronLink" }).click();
  await expect(panel.getByTestId("connected-tron-address")).toHaveText(address, { timeout: 15_000 });
  await expect(panel).toContainText("It replaces your current destination for new links.");
  await panel.getByRole("button", { name: "Sign and save" }).click();
  await expect(panel.getByTestId("active-destination")).toContainText("Receiving USDC on Tron", { timeout: 20_000 });
  await panel.getByText("Earlier destinations").click();
  await expect(panel.getByText(/USDT on tron/)).toBeVisible();
  const active = await withDb(state, async (db) =>
    (
      await db.query(
        `SELECT d."tokenSymbol" FROM "PayeeDestination" d JOIN "User" u ON u."accountId" = d."accountId" WHERE u."email" = $1 AND d."active"`,
        [email],
      )
    ).rows.map((r) => r.tokenSymbol),
  );
  expect(active).toEqual(["USDC"]);
  expect(errors).toEqual([]);
});
