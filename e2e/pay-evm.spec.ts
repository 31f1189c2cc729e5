import { activateDestination, createDemoSession, createLink, getSecurePayment } from "./support/api";
import { anvil, connectTestWallet, expect, test } from "./support/fixtures";

const APPROVE = "0x095ea7b3";
const PAY_WITH_REFERENCE = "0xc219a14d";

test("an EVM link is paid from an injected wallet: approve, pay, detected, completed", async ({ page, state, wallet, shot }) => {
  await activateDestination(state, state.demo.destinationId);
  const link = await createLink(state, {
    requests: [{ amount: "12.5" }],
    destinationId: state.demo.destinationId,
    reference: "INV-2026-0042",
    redirectUrl: "https://merchant.example/thanks?order=42",
    redirectLabel: "Back to the shop",
  });

  // JavaScript actually transferred for this page (gzip as served by next start), for the bundle report.
  const js = new Map<string, number>();
  page.on("response", async (res) => {
    if (!/\/_next\/static\/.*\.js$/.test(res.url())) return;
    const sizes = await res
      .request()
      .sizes()
      .catch(() => null);
    if (sizes) js.set(res.url(), sizes.responseBodySize);
  });

  // Injected wallets only by default: nothing may leave this machine (no WalletConnect relay, no remote icons).
  const offHost: string[] = [];
  page.on("request", (req) => {
    const url = new URL(req.url());
    if (
      (url.protocol === "http:" || url.protocol === "https:" || url.protocol === "ws:" || url.protocol === "wss:") &&
      url.hostname !== "127.0.0.1"
    ) {
      offHost.push(req.url());
    }
  });

  await page.goto(`/pay/${link.token}`);
  await expect(page).toHaveTitle(/Pay 12\.5 USDC/);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  const summary = page.getByRole("region", { name: "Payment request" });
  await expect(summary).toContainText("12.5 USDC");
  await expect(summary).toContainText("Sepolia");
  await expect(summary).toContainText("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
  await expect(summary).toContainText("INV-2026-0042");
  await expect(summary).toContainText(/Expires.*UTC.*in 7 days/);
  await expect(summary).toContainText("Awaiting payment");
  const connect = page.getByRole("button", { name: "Connect wallet" });
  await expect(connect).toBeEnabled();
  const jsKb = [...js.values()].reduce((a, b) => a + b, 0) / 1024;
  test
    .info()
    .annotations.push({ type: "js-transferred", description: `${jsKb.toFixed(1)} KB (${js.size} files) to a usable EVM pay panel` });
  console.log(`[bundle] /pay/[token] EVM pending: ${jsKb.toFixed(1)} KB of JS transferred in ${js.size} files`);
  await shot("evm-01-pending");

  // Connect through RainbowKit's modal: the test wallet is listed by EIP-6963 discovery.
  await connect.click();
  const modal = page.getByRole("dialog");
  const option = modal.getByRole("button", { name: /Duebill Test Wallet/ });
  await expect(option).toBeVisible();
  await shot("evm-02-connect-modal");
  await option.click();
  await expect(page.getByTestId("connected-address")).toHaveText(wallet.address);
  expect(wallet.chainId).toBe(state.devnet.chainId); // RainbowKit asks for the link's chain while connecting

  // The payer moves the wallet to another network: the page asks to switch back.
  await wallet.userSwitchesChain(page, 1);
  const switchButton = page.getByRole("button", { name: "Switch to Sepolia" });
  await expect(switchButton).toBeVisible();
  await shot("evm-03-wrong-network");
  await switchButton.click();
  expect(wallet.calls.filter((c) => c.method === "wallet_switchEthereumChain").length).toBeGreaterThanOrEqual(2);

  // Plan: approval then payment.
  const steps = page.getByRole("list", { name: "Payment steps" }).getByRole("listitem");
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText("Approve USDC");
  await expect(steps.nth(1)).toContainText("Pay 12.5 USDC");
  const pay = page.getByRole("button", { name: "Approve and pay" });
  await expect(pay).toBeEnabled();
  await shot("evm-04-ready");

  // The payer rejects the first signature request, then retries.
  wallet.rejectNext("eth_sendTransaction");
  await pay.click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("You rejected the request in your wallet.");
  await shot("evm-05-rejected");

  // Hold mining to see each step submitted, then mine it.
  await anvil(state, "evm_setAutomine", [false]);
  try {
    await page.getByRole("button", { name: "Try again" }).click();
    await expect(steps.nth(0)).toHaveAttribute("data-status", "submitted");
    // The devnet's transactions are on no public explorer: the hash is shown, not a wrong link.
    await expect(steps.nth(0)).toContainText(/0x[0-9a-f]{64}/);
    await expect(steps.nth(0).getByRole("link")).toHaveCount(0);
    await shot("evm-06-approval-submitted");
    await anvil(state, "evm_mine");
    await expect(steps.nth(0)).toHaveAttribute("data-status", "confirmed");
    await expect(steps.nth(1)).toHaveAttribute("data-status", "submitted");
    await expect(page.getByRole("status").filter({ hasText: "Payment submitted" })).toBeVisible();
    await shot("evm-07-payment-submitted");
    await anvil(state, "evm_mine");
  } finally {
    await anvil(state, "evm_setAutomine", [true]);
  }

  // Detection matches the payment; the page polls the link and shows it paid.
  await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible({ timeout: 30_000 });
  const redirect = page.getByRole("link", { name: "Back to the shop" });
  await expect(redirect).toHaveAttribute("href", "https://merchant.example/thanks?order=42");
  await expect(redirect).toHaveAttribute("rel", /noreferrer/);
  await expect(summary).toContainText("Status: Paid"); // the badge, after the server refresh
  await shot("evm-08-paid");

  expect(wallet.sent).toHaveLength(2);
  expect(wallet.sent[0]?.to.toLowerCase()).toBe(state.devnet.tokens.USDC?.toLowerCase());
  expect(wallet.sent[0]?.data.startsWith(APPROVE)).toBe(true);
  expect(wallet.sent[1]?.to.toLowerCase()).toBe(state.devnet.erc20FeeProxy.toLowerCase());
  expect(wallet.sent[1]?.data.startsWith(PAY_WITH_REFERENCE)).toBe(true);

  expect(offHost).toEqual([]);

  // A fresh load renders the completed link on the server: payer, transaction and the redirect.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible();
  await expect(page.getByText(wallet.address, { exact: false })).toBeVisible();
  await expect(page.getByText(wallet.sent[1]?.hash ?? "-")).toBeVisible();
  await expect(page.locator('a[href*="etherscan"]')).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Connect wallet" })).toHaveCount(0);
  await shot("evm-09-completed-reload");

  // The integrator's view (session-authenticated) agrees.
  const session = await createDemoSession(state);
  const requestId = link.requestIds[0] ?? "";
  const sp = await getSecurePayment(state, requestId, session);
  expect(sp.status).toBe(200);
  expect(sp.body.status).toBe("completed");
  expect(String(sp.body.payerAddress).toLowerCase()).toBe(wallet.address.toLowerCase());
  expect(sp.body.payerKytResults).toEqual([
    expect.objectContaining({ walletAddress: sp.body.payerAddress, status: "approved", provider: "duebill-sanctions-list" }),
  ]);
});

test("a pending link works at 375 px wide and from the keyboard", async ({ page, state, wallet, shot }) => {
  await activateDestination(state, state.demo.destinationId);
  const link = await createLink(state, {
    requests: [{ amount: "123456.78" }],
    destinationId: state.demo.destinationId,
    reference: "A long reference — March",
  });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(`/pay/${link.token}`);
  const connect = page.getByRole("button", { name: "Connect wallet" });
  await expect(connect).toBeEnabled();
  await expect(page.getByRole("region", { name: "Payment request" })).toContainText("123,456.78 USDC");
  await shot("mobile-01-pending");

  // Keyboard only: Tab to the button, Enter opens the modal, Tab to the wallet, Enter connects.
  for (let i = 0; i < 10 && !(await connect.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(connect).toBeFocused();
  await shot("mobile-02-focus");
  await page.keyboard.press("Enter");
  const option = page.getByRole("dialog").getByRole("button", { name: /Duebill Test Wallet/ });
  await expect(option).toBeVisible();
  await shot("mobile-03-modal");
  await option.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("connected-address")).toHaveText(wallet.address);
  await expect(page.getByRole("button", { name: "Approve and pay" })).toBeVisible();
  await shot("mobile-04-ready");

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("a wallet without enough tokens gets a clear message and no pay button", async ({ page, state, wallet, shot }) => {
  await activateDestination(state, state.demo.destinationId);
  // More than the devnet payer holds.
  const link = await createLink(state, { requests: [{ amount: "999999999" }], destinationId: state.demo.destinationId });
  await page.goto(`/pay/${link.token}`);
  await connectTestWallet(page, wallet.address);
  await expect(page.getByRole("main").getByRole("alert")).toContainText("Insufficient balance");
  await expect(page.getByRole("button", { name: /pay/i })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Check again" })).toBeVisible();
  await shot("evm-10-insufficient-balance");
});
