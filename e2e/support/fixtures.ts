import path from "node:path";
import { test as base, expect, type Page } from "@playwright/test";
import { type E2eState, e2eState } from "./api";
import { TestWallet } from "./test-wallet";

export { expect } from "@playwright/test";

const SCREENSHOTS = path.resolve(__dirname, "../screenshots");

export interface JourneyFixtures {
  state: E2eState;
  /** The EIP-6963 test wallet, installed in the page before the first navigation; starts on mainnet. */
  wallet: TestWallet;
  /** Saves a full-page screenshot as e2e/screenshots/<name>.png. */
  shot: (name: string, target?: Page) => Promise<void>;
}

export const test = base.extend<JourneyFixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern
  state: async ({}, use) => {
    await use(e2eState());
  },
  baseURL: async ({ state }, use) => {
    await use(state.baseUrl);
  },
  wallet: async ({ page, state }, use) => {
    const wallet = new TestWallet({
      rpcUrl: state.devnet.rpcUrl,
      chainId: state.devnet.chainId,
      privateKey: state.devnet.payer.privateKey,
      startChainId: 1,
      extraChains: [{ chainId: state.bridge.chainId, rpcUrl: state.bridge.rpcUrl }],
    });
    await wallet.install(page);
    await use(wallet);
  },
  shot: async ({ page }, use) => {
    await use(async (name, target = page) => {
      await target.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true, animations: "disabled" });
    });
  },
});

/** Raw JSON-RPC to anvil (mining control in the journeys). */
export async function anvil(state: E2eState, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(state.devnet.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/**
 * Connects the injected test wallet through RainbowKit's modal and waits until the page shows its
 * address — or, when the page reconnects the remembered wallet by itself first, takes that.
 */
export async function connectTestWallet(page: Page, address: string): Promise<void> {
  await ensureTestWalletConnected(page, address);
}

/**
 * Connects the test wallet on a page that may reconnect it by itself (wagmi remembers the last
 * connection of this browser context): the "Connect wallet" button can vanish between seeing it and
 * clicking it, so whichever comes first — the connected address or RainbowKit's wallet list — wins.
 */
export async function ensureTestWalletConnected(page: Page, address: string): Promise<void> {
  const connected = page.getByTestId("connected-address");
  const connect = page.getByRole("button", { name: "Connect wallet" });
  await expect(connected.or(connect).first()).toBeVisible();
  if (!(await connected.isVisible())) {
    // A click on a button the reconnect just removed times out: the address check below decides.
    await connect.click({ timeout: 5_000 }).catch(() => undefined);
    const option = page.getByRole("dialog").getByRole("button", { name: /Duebill Test Wallet/ });
    await expect(connected.or(option).first()).toBeVisible();
    if (!(await connected.isVisible())) await option.click();
  }
  await expect(connected).toHaveText(address);
}
