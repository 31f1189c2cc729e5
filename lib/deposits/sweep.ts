import { erc20Abi, getAddress, parseAbiItem } from "viem";
import { erc20SingleRequestProxyAbi } from "@/lib/chain/abis";
import { asEvmAddress } from "@/lib/chain/address";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { depositNetworks, depositWalletFor } from "@/lib/deposits/relayer";
import { log } from "@/lib/log";

/** A forward in flight holds its deposit for this long; a crashed sweep's lease runs out. */
const FORWARD_LEASE_MS = 90_000;
const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

interface Candidate {
  requestId: string;
  address: string;
  tokenAddress: string;
  deployBlock: bigint | null;
  feeAmount: string;
  expectedAmount: string;
  amountPaid: string;
  lastForwardTxHash: string | null;
  /** The link can no longer be completed (expired or closed): forward whatever arrived so nothing is stuck. */
  closed: boolean;
}

export interface DepositSweepResult {
  checked: number;
  forwarded: number;
}

/**
 * Forwards what reached the deposit addresses of unpaid requests: once an address holds the rest
 * of its request plus the proxy's fee (or anything above the fee once its link has closed), the
 * deposit relayer calls `triggerERC20Payment()`; the proxy pays the payee through the ERC20FeeProxy
 * with the request's reference and detection records it like any payment. Before sending, the
 * senders of the transfers into the address are stored as the depositors, so the payment is
 * attributed (and screened) to the payer, not to the relayer. Safe to run on several workers and
 * after a crash: a lease per deposit, a balance read before each send, and a forward still in the
 * mempool is never doubled.
 */
export async function sweepDeposits(): Promise<Record<string, DepositSweepResult>> {
  const out: Record<string, DepositSweepResult> = {};
  for (const network of depositNetworks()) {
    try {
      out[network] = await sweepDetectionNetwork(network);
    } catch (err) {
      log.warn("deposit sweep failed", { network, err });
    }
  }
  return out;
}

async function sweepDetectionNetwork(network: NetworkId): Promise<DepositSweepResult> {
  const client = publicClientFor(network)!;
  const rows = await db().$queryRaw<Candidate[]>`
    SELECT d."requestId", d."address", d."tokenAddress", d."deployBlock", d."feeAmount"::text AS "feeAmount",
           pr."expectedAmount"::text AS "expectedAmount", pr."amountPaid"::text AS "amountPaid", d."lastForwardTxHash",
           COALESCE(sp."status" <> 'pending' OR sp."expiresAt" <= now(), false) AS "closed"
    FROM "DepositAddress" d
    JOIN "PaymentRequest" pr ON pr."id" = d."requestId"
    LEFT JOIN "SecurePaymentRequest" spr ON spr."requestId" = d."requestId"
    LEFT JOIN "SecurePayment" sp ON sp."token" = spr."securePaymentToken"
    WHERE d."network" = ${network} AND d."address" IS NOT NULL AND pr."status" <> 'paid'
      AND (d."leaseUntil" IS NULL OR d."leaseUntil" < now())
      AND d."createdAt" > now() - interval '30 days'
    ORDER BY d."createdAt" DESC
    LIMIT 500`;
  let forwarded = 0;
  for (let i = 0; i < rows.length; i += 20) {
    const chunk = rows.slice(i, i + 20);
    const balances = await Promise.all(
      chunk.map((c) =>
        client.readContract({
          address: asEvmAddress(c.tokenAddress),
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [asEvmAddress(c.address)],
        }),
      ),
    );
    for (const [j, c] of chunk.entries()) {
      const balance = balances[j]!;
      const fee = BigInt(c.feeAmount);
      const rest = BigInt(c.expectedAmount) - BigInt(c.amountPaid);
      const due = (rest > 0n ? rest : 0n) + fee;
      const ready = balance > 0n && (balance >= due || (c.closed && balance > fee));
      if (ready && (await forward(network, c))) forwarded += 1;
    }
  }
  return { checked: rows.length, forwarded };
}

async function forward(network: NetworkId, c: Candidate): Promise<boolean> {
  const client = publicClientFor(network)!;
  const signer = depositWalletFor(network);
  if (!signer) return false;
  // A forward sent earlier and not mined yet: wait for it rather than send a second one.
  if (c.lastForwardTxHash) {
    const hash = c.lastForwardTxHash as `0x${string}`;
    const receipt = await client.getTransactionReceipt({ hash }).catch(() => null);
    if (!receipt && (await client.getTransaction({ hash }).catch(() => null))) return false;
  }
  const { count } = await db().depositAddress.updateMany({
    where: { requestId: c.requestId, OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date(nowMs()) } }] },
    data: { leaseUntil: new Date(nowMs() + FORWARD_LEASE_MS) },
  });
  if (count !== 1) return false;
  try {
    const proxy = asEvmAddress(c.address);
    const logs = await client.getLogs({
      address: asEvmAddress(c.tokenAddress),
      event: transferEvent,
      args: { to: proxy },
      fromBlock: c.deployBlock ?? 0n,
      toBlock: "latest",
    });
    const depositors = [
      ...new Set(
        logs
          .map((l) => l.args.from)
          .filter((a): a is `0x${string}` => !!a)
          .map((a) => getAddress(a)),
      ),
    ];
    await db().depositAddress.update({ where: { requestId: c.requestId }, data: { depositors } });
    const { request } = await client.simulateContract({
      account: signer.account,
      address: proxy,
      abi: erc20SingleRequestProxyAbi,
      functionName: "triggerERC20Payment",
    });
    const hash = await signer.wallet.writeContract({ ...request, account: signer.account, chain: null });
    await db().depositAddress.update({ where: { requestId: c.requestId }, data: { lastForwardTxHash: hash } });
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: 60_000, pollingInterval: 250 });
    if (receipt.status !== "success") throw new Error(`forward reverted (${hash})`);
    await db().depositAddress.update({ where: { requestId: c.requestId }, data: { lastForwardedAt: new Date(nowMs()), leaseUntil: null } });
    log.info("deposit forwarded", { requestId: c.requestId, network, txHash: hash, depositors });
    return true;
  } catch (err) {
    await db().depositAddress.update({ where: { requestId: c.requestId }, data: { leaseUntil: null } });
    log.warn("deposit forward failed", { requestId: c.requestId, network, err });
    return false;
  }
}
