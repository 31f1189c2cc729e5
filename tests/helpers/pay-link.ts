import { createWalletClient, http, type PublicClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { expect } from "vitest";
import { GET as payLink } from "@/app/v2/secure-payments/[token]/pay/route";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import type { Devnet } from "@/scripts/devnet";
import { call } from "@/tests/helpers/http";

/**
 * Pays a link on the devnet as its hosted page would: asks GET /{token}/pay for the wallet's
 * plan, sends each transaction in order, then runs detection. Returns the plan.
 */
export async function payLinkOnDevnet(devnet: Devnet, pub: PublicClient, token: string, key = devnet.accounts.payer.privateKey) {
  const account = privateKeyToAccount(key);
  const plan = await call(payLink, `/v2/secure-payments/${token}/pay?wallet=${account.address}`, { params: { token } });
  expect(plan.status, JSON.stringify(plan.body)).toBe(200);
  const wallet = createWalletClient({ account, chain: devnet.chain, transport: http(devnet.rpcUrl) });
  for (const tx of plan.body.transactions)
    await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: tx.to, data: tx.data }) });
  await sweepDetectionNetwork(evmEventSource("sepolia")!);
  return plan.body;
}
