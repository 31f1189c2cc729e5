import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  type PublicClient,
  parseEventLogs,
  http as viemHttp,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import { POST as activate } from "@/app/v2/payouts/recurring/[id]/route";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { recurringPaymentsAbi } from "@/contracts/generated/abis.generated";
import type { Devnet } from "@/scripts/devnet";
import { call } from "@/tests/helpers/http";

/**
 * What the recurring tests on anvil share: wallets of throwaway keys, a fresh payer with gas and
 * USDC, a schedule created and activated through the API exactly as a payer's client would (approve
 * with the transactions it is given, sign the permit envelope as returned), and the contract's own
 * PaymentTriggered events as the oracle of what was paid.
 */
export function recurringAnvil(devnet: Devnet, pub: PublicClient, headers: () => Record<string, string>) {
  const walletOf = (key: Hex) =>
    createWalletClient({ account: privateKeyToAccount(key), chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) });

  /** Sends from `key` and waits for its receipt, which must be a success. */
  async function sendFrom(key: Hex, to: Address, data?: Hex, value?: bigint) {
    const hash = await walletOf(key).sendTransaction({ to, data, value });
    const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(receipt.status).toBe("success");
    return receipt;
  }

  const transfer = (to: Address, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to, amount] });

  /** Moves `amount` base units of the devnet's USDC from the devnet's funded payer to `to`. */
  const fundUsdc = (to: Address, amount: bigint) => sendFrom(devnet.accounts.payer.privateKey, devnet.tokens.USDC, transfer(to, amount));

  /** A fresh key with 1 ETH for gas and `usdc` base units of USDC. */
  async function newPayer(usdc: bigint) {
    const key = generatePrivateKey();
    const address = privateKeyToAccount(key).address;
    await sendFrom(devnet.accounts.deployer.privateKey, address, undefined, 10n ** 18n);
    await fundUsdc(address, usdc);
    return { key, address };
  }

  /** Signs a `recurringPaymentPermit` envelope exactly as the API returned it (decimal strings and all), as a client would. */
  function signPermit(key: Hex, permit: { domain: unknown; types: unknown; primaryType: unknown; values: unknown }) {
    const typed = { domain: permit.domain, types: permit.types, primaryType: permit.primaryType, message: permit.values };
    return privateKeyToAccount(key).signTypedData(
      typed as unknown as Parameters<ReturnType<typeof privateKeyToAccount>["signTypedData"]>[0],
    );
  }

  /** A fresh payer with `funded` USDC and a schedule of 3 weekly 25 USDC payments from `start` (unix seconds), approved and signed. */
  async function subscribe(start: number, funded: bigint) {
    const { key, address: payer } = await newPayer(funded);
    const res = await call(createPayout, "/v2/payouts", {
      method: "POST",
      headers: headers(),
      json: {
        payee: devnet.accounts.payee.address,
        amount: "25",
        invoiceCurrency: "USDC-sepolia",
        paymentCurrency: "USDC-sepolia",
        recurrence: { payer, startDate: new Date(start * 1000).toISOString(), frequency: "WEEKLY", totalPayments: 3 },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    for (const tx of res.body.transactions) await sendFrom(key, tx.to, tx.data);
    const signature = await signPermit(key, res.body.recurringPaymentPermit);
    const id = res.body.id as string;
    const act = await call(activate, `/v2/payouts/recurring/${id}`, {
      method: "POST",
      headers: headers(),
      params: { id },
      json: { permitSignature: signature },
    });
    expect(act.status, JSON.stringify(act.body)).toBe(201);
    return { id, key, payer, dueTimes: (res.body.metadata.dueDates as string[]).map((d) => Date.parse(d) / 1000) };
  }

  /** The payment indexes of the recurring contract's PaymentTriggered events from `fromBlock` on, in chain order. */
  async function triggeredIndexes(fromBlock: bigint): Promise<number[]> {
    const logs = await pub.getLogs({ address: devnet.contracts.recurringPayments, fromBlock, toBlock: "latest" });
    const parsed = parseEventLogs({ abi: recurringPaymentsAbi, logs, eventName: "PaymentTriggered" as never }) as unknown as {
      args: { index: number | bigint };
    }[];
    return parsed.map((l) => Number(l.args.index));
  }

  return { walletOf, sendFrom, transfer, fundUsdc, newPayer, signPermit, subscribe, triggeredIndexes };
}
