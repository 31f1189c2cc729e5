/**
 * A few real payments for the demo account on a fresh devnet, so the dashboard's chart and totals
 * are not empty on first sight: requests created with the same domain function as POST /v2/request,
 * paid on chain by the devnet payer (anvil account 1) with the calldata GET /v2/request/{id}/pay
 * returns. Detection records them like any other payment once the app runs.
 */
import { createPublicClient, createWalletClient, defineChain, http } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { DEMO } from "@/lib/accounts/demo";
import { networkRuntime } from "@/lib/chain/config";
import { isLocalChain } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import { createRequest } from "@/lib/requests/create-request";
import { payRequest } from "@/lib/requests/pay-request";
import { ANVIL_MNEMONIC } from "./anvil";

const PAYEE = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const DEMO_ORDERS = [
  { reference: "DEMO-1001", amount: "49" },
  { reference: "DEMO-1002", amount: "120.5" },
  { reference: "DEMO-1003", amount: "15.99" },
  { reference: "DEMO-1004", amount: "250" },
];

/** Pays the demo orders once per database; does nothing when the account already has payments or no devnet runs. */
export async function makeDemoPayments(): Promise<number> {
  const rt = networkRuntime("sepolia");
  if (!rt.rpcUrl || !isLocalChain("sepolia")) return 0;
  const done = await db().paymentRequest.count({ where: { accountId: DEMO.accountId, reference: { startsWith: "DEMO-" } } });
  if (done > 0) return 0;
  const payer = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 1 });
  const rpc = createPublicClient({ transport: http(rt.rpcUrl) });
  const chain = defineChain({
    id: await rpc.getChainId(),
    name: "devnet",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rt.rpcUrl] } },
  });
  const wallet = createWalletClient({ account: payer, chain, transport: http(rt.rpcUrl) });
  const principal = { kind: "apiKey" as const, accountId: DEMO.accountId, credentialId: DEMO.apiKeyId, rateTier: "default" as const };
  for (const order of DEMO_ORDERS) {
    const { requestId } = await createRequest(principal, {
      amount: order.amount,
      invoiceCurrency: "USDC-sepolia",
      paymentCurrency: "USDC-sepolia",
      payee: PAYEE,
      reference: order.reference,
    });
    const plan = await payRequest(DEMO.accountId, requestId, { wallet: payer.address });
    for (const tx of plan.transactions) {
      const hash = await wallet.sendTransaction({ to: tx.to as `0x${string}`, data: tx.data as `0x${string}`, value: 0n });
      await rpc.waitForTransactionReceipt({ hash });
    }
  }
  return DEMO_ORDERS.length;
}
