import { erc20SingleRequestProxyAbi } from "@/lib/chain/abis";
import { asEvmAddress } from "@/lib/chain/address";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { type DepositCandidate, depositBalanceOf, depositInflowsOf, sendDepositTx } from "@/lib/deposits/deposit-io";
import { depositNetworks, depositWalletFor } from "@/lib/deposits/relayer";
import { settleDuebillDeposit } from "@/lib/deposits/returns";
import { log } from "@/lib/log";

/** A forward in flight holds its deposit for this long; a crashed sweep's lease runs out. */
const FORWARD_LEASE_MS = 90_000;

export interface DepositSweepResult {
  checked: number;
  forwarded: number;
  /** Returns sent (an excess, an underpaid or a late payment back to its sender). */
  returned: number;
}

/**
 * Moves what reached the deposit addresses. Request Network's proxies (production chains until
 * Duebill's factory is deployed there): once an address holds the rest of its request plus the
 * proxy's fee (or anything above the fee once its link has closed), the deposit relayer calls
 * `triggerERC20Payment()`, which forwards the whole balance. Duebill's own DuebillDepositAddress:
 * the payee is paid what it is owed first, and what the request did not ask for follows the link's
 * policy (`planDeposit`): returned to the sender (policy `return`, one sender that is not a contract),
 * else forwarded to the payee, where detection offers it as a refund (lib/refunds/offer.ts) unless the
 * policy is `keep`. Payments are recorded by detection as the depositor's (the senders of the
 * transfers into the address are stored first); each return is a Refund row (sender relayer) written
 * before sending (so detection knows its reference), with its transaction hash right after. Safe on several workers and after a crash: a lease
 * per deposit, nothing sent while the relayer has a transaction pending, a balance and contract read
 * before each send, and a return sent but not written (`pendingReturn` still set) is looked up in the
 * contract's Returned events before anything else is sent.
 */
export async function sweepDeposits(): Promise<Record<string, DepositSweepResult>> {
  const out: Record<string, DepositSweepResult> = {};
  for (const network of depositNetworks()) {
    try {
      out[network] = await sweepDepositNetwork(network);
    } catch (err) {
      log.warn("deposit sweep failed", { network, err });
    }
  }
  return out;
}

async function sweepDepositNetwork(network: NetworkId): Promise<DepositSweepResult> {
  const client = publicClientFor(network)!;
  // Unpaid requests, and Duebill's addresses of paid ones too: a transfer after the payment is an excess to return.
  const rows = await db().$queryRaw<DepositCandidate[]>`
    SELECT d."requestId", pr."accountId", pr."network", pr."salt", d."address", d."tokenAddress", d."deployBlock",
           d."feeAmount"::text AS "feeAmount", pr."expectedAmount"::text AS "expectedAmount", pr."amountPaid"::text AS "amountPaid",
           d."lastForwardTxHash", d."contract"::text AS "contract", d."closesAt", d."pendingReturn"::text AS "pendingReturn",
           COALESCE(sp."status" <> 'pending' OR sp."expiresAt" <= now(), false) AS "closed",
           CASE WHEN sp."status" = 'expired' OR (sp."status" = 'pending' AND sp."expiresAt" <= now() AND pr."status" <> 'paid')
                THEN sp."expiresAt" END AS "expiredAt",
           COALESCE(sp."excessPolicy", a."excessPolicy")::text AS "policy"
    FROM "DepositAddress" d
    JOIN "PaymentRequest" pr ON pr."id" = d."requestId"
    JOIN "Account" a ON a."id" = pr."accountId"
    LEFT JOIN "SecurePaymentRequest" spr ON spr."requestId" = d."requestId"
    LEFT JOIN "SecurePayment" sp ON sp."token" = spr."securePaymentToken"
    WHERE d."network" = ${network} AND d."address" IS NOT NULL AND (pr."status" <> 'paid' OR d."contract" = 'duebill')
      AND (d."leaseUntil" IS NULL OR d."leaseUntil" < now())
      AND d."createdAt" > now() - interval '30 days'
    ORDER BY d."createdAt" DESC
    LIMIT 500`;
  let forwarded = 0;
  let returned = 0;
  for (let i = 0; i < rows.length; i += 20) {
    const chunk = rows.slice(i, i + 20);
    const balances = await Promise.all(chunk.map((c) => depositBalanceOf(client, c)));
    for (const [j, c] of chunk.entries()) {
      const balance = balances[j]!;
      if (c.contract === "duebill") {
        if (balance === 0n && !c.pendingReturn) continue;
        const done = await withLease(c, () => settleDuebillDeposit(network, c));
        forwarded += done?.forwarded ?? 0;
        returned += done?.returned ?? 0;
        continue;
      }
      const fee = BigInt(c.feeAmount);
      const rest = BigInt(c.expectedAmount) - BigInt(c.amountPaid);
      const due = (rest > 0n ? rest : 0n) + fee;
      const ready = balance > 0n && (balance >= due || (c.closed && balance > fee));
      if (ready && (await withLease(c, () => triggerRequestNetworkProxy(network, c)))) forwarded += 1;
    }
  }
  return { checked: rows.length, forwarded, returned };
}

/**
 * Runs `act` holding the deposit's lease, unless a transaction of the relayer for it (or any of the
 * relayer's, on this network) is still waiting to be mined: then nothing is sent (null).
 */
async function withLease<T>(c: DepositCandidate, act: () => Promise<T>): Promise<T | null> {
  const network = c.network as NetworkId;
  const client = publicClientFor(network)!;
  const signer = depositWalletFor(network);
  if (!signer) return null;
  // A transaction sent earlier and not mined yet: wait for it rather than send a second one.
  if (c.lastForwardTxHash) {
    const hash = c.lastForwardTxHash as `0x${string}`;
    const receipt = await client.getTransactionReceipt({ hash }).catch(() => null);
    if (!receipt && (await client.getTransaction({ hash }).catch(() => null))) return null;
  }
  const { count } = await db().depositAddress.updateMany({
    where: { requestId: c.requestId, OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date(nowMs()) } }] },
    data: { leaseUntil: new Date(nowMs() + FORWARD_LEASE_MS) },
  });
  if (count !== 1) return null;
  try {
    if (c.contract === "duebill") {
      const [pending, mined] = await Promise.all([
        client.getTransactionCount({ address: signer.account.address, blockTag: "pending" }),
        client.getTransactionCount({ address: signer.account.address, blockTag: "latest" }),
      ]);
      if (pending > mined) return null;
    }
    return await act();
  } catch (err) {
    log.warn("deposit sweep step failed", { requestId: c.requestId, network, err });
    return null;
  } finally {
    await db().depositAddress.update({ where: { requestId: c.requestId }, data: { leaseUntil: null } });
  }
}

async function triggerRequestNetworkProxy(network: NetworkId, c: DepositCandidate): Promise<boolean> {
  const client = publicClientFor(network)!;
  const signer = depositWalletFor(network)!;
  const proxy = asEvmAddress(c.address);
  const { depositors, late } = await depositInflowsOf(client, c);
  await db().depositAddress.update({ where: { requestId: c.requestId }, data: { depositors, lateAmount: late.toString() } });
  const { request } = await client.simulateContract({
    account: signer.account,
    address: proxy,
    abi: erc20SingleRequestProxyAbi,
    functionName: "triggerERC20Payment",
  });
  await sendDepositTx(network, c, () => signer.wallet.writeContract({ ...request, account: signer.account, chain: null }));
  log.info("deposit forwarded", { requestId: c.requestId, network, depositors });
  return true;
}
