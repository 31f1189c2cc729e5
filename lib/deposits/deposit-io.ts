import { erc20Abi, getAddress, type PublicClient, parseAbiItem, zeroAddress } from "viem";
import { asEvmAddress } from "@/lib/chain/address";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import type { ExcessPolicy, RefundReason } from "@/lib/generated/prisma/client";

// What the deposit sweep reads and sends for one deposit address (lib/deposits/sweep.ts, lib/deposits/returns.ts).

const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

/** A deposit address the sweep looks at, with its request's and its link's state. */
export interface DepositCandidate {
  requestId: string;
  accountId: string;
  network: string;
  salt: string;
  address: string;
  tokenAddress: string;
  deployBlock: bigint | null;
  feeAmount: string;
  expectedAmount: string;
  amountPaid: string;
  lastForwardTxHash: string | null;
  contract: "request_network" | "duebill";
  /** Duebill's contract: from then on it may send back what it holds. */
  closesAt: Date | null;
  pendingReturn: RefundReason | null;
  /** The link can no longer be completed (expired or closed): forward whatever arrived so nothing is stuck. */
  closed: boolean;
  /** The link's expiry when it expired unpaid (not completed): what arrives after it is late, what stays short of the amount underpaid. */
  expiredAt: Date | null;
  policy: ExcessPolicy;
}

export const depositBalanceOf = (client: PublicClient, c: DepositCandidate) =>
  client.readContract({ address: asEvmAddress(c.tokenAddress), abi: erc20Abi, functionName: "balanceOf", args: [asEvmAddress(c.address)] });

/** What reached the address: its senders (oldest first), everything, and what came after the link's expiry. */
export async function depositInflowsOf(client: PublicClient, c: DepositCandidate) {
  const logs = await client.getLogs({
    address: asEvmAddress(c.tokenAddress),
    event: transferEvent,
    args: { to: asEvmAddress(c.address) },
    fromBlock: c.deployBlock ?? 0n,
    toBlock: "latest",
  });
  const depositors = [
    ...new Set(
      logs
        .map((l) => l.args.from)
        .filter((a): a is `0x${string}` => !!a && a !== zeroAddress)
        .map((a) => getAddress(a)),
    ),
  ];
  let total = 0n;
  let late = 0n;
  const times = new Map<bigint, number>();
  for (const l of logs) {
    const value = l.args.value ?? 0n;
    total += value;
    if (!c.expiredAt || l.blockNumber === null) continue;
    let t = times.get(l.blockNumber);
    if (t === undefined) {
      t = Number((await client.getBlock({ blockNumber: l.blockNumber })).timestamp) * 1000;
      times.set(l.blockNumber, t);
    }
    if (t > c.expiredAt.getTime()) late += value;
  }
  return { depositors, total, late };
}

/** Sends a transaction for the deposit, remembers its hash at once (a later sweep waits for it), waits for it to be mined. */
export async function sendDepositTx(network: NetworkId, c: DepositCandidate, write: () => Promise<`0x${string}`>): Promise<`0x${string}`> {
  const client = publicClientFor(network)!;
  const hash = await write();
  await db().depositAddress.update({ where: { requestId: c.requestId }, data: { lastForwardTxHash: hash } });
  const receipt = await client.waitForTransactionReceipt({ hash, timeout: 60_000, pollingInterval: 250 });
  if (receipt.status !== "success") throw new Error(`deposit transaction reverted (${hash})`);
  await db().depositAddress.update({ where: { requestId: c.requestId }, data: { lastForwardedAt: new Date(nowMs()) } });
  return hash;
}
