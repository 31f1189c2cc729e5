/**
 * Gasless pay from the hosted page (issue 31): a payer holding devnet USDC and no ETH at all connects the
 * injected wallet, signs one EIP-3009 authorization (eth_signTypedData_v4) and Duebill's relayer sends the
 * payment; detection completes the link. The payer sends no transaction: its nonce stays 0.
 */
import { createPublicClient, createWalletClient, erc20Abi, http, parseAbi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { destinationIdOf } from "@/lib/destinations/erc7828";
import { activateDestination, createLink, withDb } from "./support/api";
import { anvil, connectTestWallet, expect, test } from "./support/fixtures";
import { TestWallet } from "./support/test-wallet";

test("a payer with USDC and 0 ETH pays a link with one signature; detection completes it (1280 and 390 px)", async ({
  page,
  state,
  shot,
}) => {
  await activateDestination(state, state.demo.destinationId);
  const pub = createPublicClient({ transport: http(state.devnet.rpcUrl) });
  const key = generatePrivateKey();
  const payer = privateKeyToAccount(key);
  const minter = createWalletClient({ account: privateKeyToAccount(state.devnet.payer.privateKey), transport: http(state.devnet.rpcUrl) });
  const minted = await minter.writeContract({
    chain: null,
    address: state.devnet.tokens.USDC!,
    abi: parseAbi(["function mint(address to, uint256 value)"]),
    functionName: "mint",
    args: [payer.address, 100_000_000n],
  });
  await pub.waitForTransactionReceipt({ hash: minted });
  expect(await pub.getBalance({ address: payer.address })).toBe(0n);

  const wallet = new TestWallet({
    rpcUrl: state.devnet.rpcUrl,
    chainId: state.devnet.chainId,
    privateKey: key,
    startChainId: state.devnet.chainId,
  });
  await wallet.install(page);

  for (const [width, height, amount] of [
    [1280, 900, "12.5"],
    [390, 844, "7.25"],
  ] as const) {
    await page.setViewportSize({ width, height });
    const link = await createLink(state, {
      requests: [{ amount }],
      destinationId: state.demo.destinationId,
      reference: `GASLESS-${width}`,
    });
    const payeeBefore = await pub.readContract({
      address: state.devnet.tokens.USDC!,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [state.devnet.payee],
    });
    await page.goto(`/pay/${link.token}`);
    await connectTestWallet(page, payer.address);

    const gasless = page.getByRole("region", { name: "Pay without gas" });
    await expect(gasless).toBeVisible();
    await expect(gasless).toContainText("No ETH needed");
    const plan = page.getByTestId("gasless-plan");
    await expect(plan).toContainText(`Amount${amount} USDC`);
    await expect(plan).toContainText("Network fee (relayer)Free");
    await expect(plan).toContainText(`Total you sign${amount} USDC`);
    await shot(`gasless-01-plan-${width}`);

    // Hold mining to see the relayed payment in flight, then mine it.
    await anvil(state, "evm_setAutomine", [false]);
    try {
      await gasless.getByRole("button", { name: "Sign to send without gas" }).click();
      await expect(gasless.getByRole("status")).toContainText("Duebill's relayer is sending it (no gas from you)");
      await expect(gasless.getByRole("button", { name: "Sending your payment…" })).toBeDisabled();
      await shot(`gasless-02-sending-${width}`);
      // The relayer's transaction is in the pool before the block is mined.
      await expect.poll(async () => Number(await anvil(state, "eth_getBlockTransactionCountByNumber", ["pending"]))).toBeGreaterThan(0);
      await anvil(state, "evm_mine");
    } finally {
      await anvil(state, "evm_setAutomine", [true]);
    }
    await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("region", { name: "Payment request" })).toContainText("Status: Paid");
    await shot(`gasless-03-paid-${width}`);
    const payeeAfter = await pub.readContract({
      address: state.devnet.tokens.USDC!,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [state.devnet.payee],
    });
    expect(payeeAfter - payeeBefore).toBe(BigInt(Math.round(Number(amount) * 1e6)));
  }

  // Two links, two signatures, no transaction from the payer.
  expect(wallet.calls.filter((c) => c.method === "eth_signTypedData_v4")).toHaveLength(2);
  expect(wallet.sent).toHaveLength(0);
  expect(await pub.getTransactionCount({ address: payer.address })).toBe(0);
  expect(await pub.getBalance({ address: payer.address })).toBe(0n);
});

test("a USDT link says in one line why it needs gas (no EIP-3009) and keeps the wallet path", async ({ page, state, wallet, shot }) => {
  // A USDT-on-Sepolia destination of the demo account, written directly (as support/api.ts does for Tron), active for this link only.
  const usdt = state.devnet.tokens.USDT!;
  const id = destinationIdOf(state.devnet.payee, state.devnet.chainId, usdt);
  await withDb(state, (db) =>
    db.query(
      `INSERT INTO "PayeeDestination" ("id", "accountId", "walletAddress", "network", "chainId", "tokenAddress", "tokenSymbol", "active")
       VALUES ($1, $2, $3, 'sepolia', $4, $5, 'USDT', false) ON CONFLICT ("id") DO NOTHING`,
      [id, state.demo.accountId, state.devnet.payee, state.devnet.chainId, usdt],
    ),
  );
  await activateDestination(state, id);
  try {
    const link = await createLink(state, { requests: [{ amount: "3" }], destinationId: id, reference: "GASLESS-USDT" });
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`/pay/${link.token}`);
      await connectTestWallet(page, wallet.address);
      await expect(page.getByTestId("gasless-unavailable")).toHaveText(
        "USDT can't be paid without gas: it has no signature payments (EIP-3009), so your wallet needs ETH for the network fee.",
      );
      await expect(page.getByRole("region", { name: "Pay without gas" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Approve and pay" })).toBeVisible();
      await shot(`gasless-04-usdt-${width}`);
    }
  } finally {
    await activateDestination(state, state.demo.destinationId);
  }
});
