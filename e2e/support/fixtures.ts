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

/** Connects the injected test wallet through RainbowKit's modal and waits until the page shows its address. */
export async function connectTestWallet(page: Page, address: string): Promise<void> {
  await page.getByRole("button", { name: "Connect wallet" }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Duebill Test Wallet/ })
    .click();
  await expect(page.getByTestId("connected-address")).toHaveText(address);
}
