import { type Address, erc20Abi, getAddress, type PublicClient, parseAbiItem, zeroAddress } from "viem";
import { depositAddressAbi } from "@/contracts/generated/abis.generated";
import { erc20SingleRequestProxyAbi } from "@/lib/chain/abis";
import { asEvmAddress } from "@/lib/chain/address";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { depositNetworks, depositWalletFor } from "@/lib/deposits/relayer";
import type { ExcessPolicy, RefundReason } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { insertRefund, refundReferenceOf } from "@/lib/refunds/store";

/** A forward in flight holds its deposit for this long; a crashed sweep's lease runs out. */
const FORWARD_LEASE_MS = 90_000;
const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const returnedEvent = parseAbiItem("event Returned(address indexed to, uint256 amount, bytes8 refundReference)");

/** Why money that should have gone back was forwarded to the payee instead: the offered refund's warning. */
export const RETURN_BLOCKED = {
  contract:
    "The payer paid from a contract (a smart wallet, or an exchange's or a service's address): Duebill did not send the money back " +
    "automatically. Check that the address can receive it (or ask the payer where to send it) before refunding.",
  several: "Several wallets sent money to this payment's deposit address: check who is owed what before sending.",
} as const;

interface Candidate {
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
 * with its transaction hash right after sending. Safe on several workers and after a crash: a lease
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
  const rows = await db().$queryRaw<Candidate[]>`
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
    const balances = await Promise.all(chunk.map((c) => balanceOf(client, c)));
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

const balanceOf = (client: PublicClient, c: Candidate) =>
  client.readContract({ address: asEvmAddress(c.tokenAddress), abi: erc20Abi, functionName: "balanceOf", args: [asEvmAddress(c.address)] });

/**
 * Runs `act` holding the deposit's lease, unless a transaction of the relayer for it (or any of the
 * relayer's, on this network) is still waiting to be mined: then nothing is sent (null).
 */
async function withLease<T>(c: Candidate, act: () => Promise<T>): Promise<T | null> {
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

/** What reached the address: its senders (oldest first), everything, and what came after the link's expiry. */
async function inflowsOf(client: PublicClient, c: Candidate) {
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

async function triggerRequestNetworkProxy(network: NetworkId, c: Candidate): Promise<boolean> {
  const client = publicClientFor(network)!;
  const signer = depositWalletFor(network)!;
  const proxy = asEvmAddress(c.address);
  const { depositors, late } = await inflowsOf(client, c);
  await db().depositAddress.update({ where: { requestId: c.requestId }, data: { depositors, lateAmount: late.toString() } });
  const { request } = await client.simulateContract({
    account: signer.account,
    address: proxy,
    abi: erc20SingleRequestProxyAbi,
    functionName: "triggerERC20Payment",
  });
  await send(network, c, () => signer.wallet.writeContract({ ...request, account: signer.account, chain: null }));
  log.info("deposit forwarded", { requestId: c.requestId, network, depositors });
  return true;
}

/** One step of settling a deposit address of Duebill's contract. */
export type DepositStep =
  | { kind: "forward"; toPayee: bigint }
  | { kind: "return"; amount: bigint; reason: Exclude<RefundReason, "requested"> };

export interface DepositState {
  /** The address's balance, and of it what arrived before the link expired and has not left yet (first in, first out). */
  balance: bigint;
  heldOnTime: bigint;
  /** The contract's owed() and feeDue(). */
  owed: bigint;
  feeDue: bigint;
  /** The link expired without being completed. */
  expired: boolean;
  /** The contract's closesAt has passed: it may send back what it holds. */
  contractClosed: boolean;
  policy: ExcessPolicy;
  /** Where a return goes: the one sender, when it is not a contract; null: no automatic return. */
  returnTo: string | null;
}

/**
 * What to do with a Duebill deposit address's balance (pure: the sweep's rule, tested on its own).
 * The payee first: a balance below what it is owed waits while the link is open. Then what the request
 * did not ask for — the excess above it, the whole of a balance left short when the link expired
 * (underpaid), what came after the expiry (late) — goes back to its sender under the `return` policy
 * when it can (one sender that is not a contract; underpaid and late money once the contract's closing
 * time has passed), else everything goes to the payee (fee first), where detection offers it unless the
 * policy is `keep`. A short balance that would not even cover the fee waits.
 */
export function planDeposit(s: DepositState): DepositStep[] {
  const need = s.owed + s.feeDue;
  const forwardAll = (): DepositStep[] => {
    const fee = s.feeDue < s.balance ? s.feeDue : s.balance;
    return s.balance > fee || (need > 0n && s.balance >= need) ? [{ kind: "forward", toPayee: s.balance - fee }] : [];
  };
  if (!s.expired) {
    if (need > 0n && s.balance < need) return [];
    const excess = s.balance - need;
    if (excess === 0n) return [{ kind: "forward", toPayee: s.owed }];
    if (s.policy !== "return" || !s.returnTo) return forwardAll();
    return [...(need > 0n ? [{ kind: "forward" as const, toPayee: s.owed }] : []), { kind: "return", amount: excess, reason: "excess" }];
  }
  const payFirst = need > 0n && s.heldOnTime >= need;
  const excess = payFirst ? s.heldOnTime - need : need === 0n ? s.heldOnTime : 0n;
  const under = !payFirst && need > 0n ? s.heldOnTime : 0n;
  const late = s.balance - s.heldOnTime;
  if (s.policy !== "return" || !s.returnTo) return forwardAll();
  const payeePaid = need === 0n || payFirst;
  const steps: DepositStep[] = payFirst ? [{ kind: "forward", toPayee: s.owed }] : [];
  if (excess > 0n) steps.push({ kind: "return", amount: excess, reason: "excess" });
  // Before the contract's closing time (a cancelled link) only an excess can leave: the rest waits for it.
  if (under > 0n && s.contractClosed) steps.push({ kind: "return", amount: under, reason: "underpaid" });
  if (late > 0n && (s.contractClosed || payeePaid)) steps.push({ kind: "return", amount: late, reason: "late" });
  return steps;
}

async function settleDuebillDeposit(network: NetworkId, c: Candidate): Promise<{ forwarded: number; returned: number }> {
  const client = publicClientFor(network)!;
  const address = asEvmAddress(c.address);
  if (c.pendingReturn) await reconcileReturns(client, c);
  const read = <T>(functionName: "owed" | "feeDue") => client.readContract({ address, abi: depositAddressAbi, functionName }) as Promise<T>;
  const [inflow, balance, owed, feeDue] = await Promise.all([
    inflowsOf(client, c),
    balanceOf(client, c),
    read<bigint>("owed"),
    read<bigint>("feeDue"),
  ]);
  if (balance === 0n) return { forwarded: 0, returned: 0 };
  const { depositors } = inflow;
  let returnTo: string | null = null;
  let blocked: string | null = null;
  if (depositors.length > 1) blocked = RETURN_BLOCKED.several;
  else if (depositors[0]) {
    const code = await client.getCode({ address: asEvmAddress(depositors[0]) });
    if (code && code !== "0x") blocked = RETURN_BLOCKED.contract;
    else returnTo = depositors[0];
  }
  await db().depositAddress.update({
    where: { requestId: c.requestId },
    data: { depositors, lateAmount: inflow.late.toString(), ...(c.policy === "return" && blocked ? { autoReturnBlocked: blocked } : {}) },
  });
  // First in, first out: what left the address (forwarded or returned) is its oldest money.
  const left = inflow.total - balance;
  const onTimeIn = inflow.total - inflow.late;
  const heldOnTime = onTimeIn > left ? (onTimeIn - left < balance ? onTimeIn - left : balance) : 0n;
  const steps = planDeposit({
    balance,
    heldOnTime,
    owed,
    feeDue,
    expired: c.expiredAt !== null,
    contractClosed: c.closesAt !== null && c.closesAt.getTime() <= nowMs(),
    policy: c.policy,
    returnTo,
  });
  const signer = depositWalletFor(network)!;
  const done = { forwarded: 0, returned: 0 };
  for (const step of steps) {
    if (step.kind === "forward") {
      const { request } = await client.simulateContract({
        account: signer.account,
        address,
        abi: depositAddressAbi,
        functionName: "forward",
        args: [step.toPayee],
      });
      await send(network, c, () => signer.wallet.writeContract({ ...request, account: signer.account, chain: null }));
      log.info("deposit forwarded", { requestId: c.requestId, network, toPayee: step.toPayee.toString(), depositors });
      done.forwarded += 1;
    } else {
      await sendReturn(network, c, returnTo!, step.amount, step.reason);
      done.returned += 1;
    }
  }
  return done;
}

/** Sends a transaction for the deposit, remembers its hash at once (a later sweep waits for it), waits for it to be mined. */
async function send(network: NetworkId, c: Candidate, write: () => Promise<`0x${string}`>): Promise<`0x${string}`> {
  const client = publicClientFor(network)!;
  const hash = await write();
  await db().depositAddress.update({ where: { requestId: c.requestId }, data: { lastForwardTxHash: hash } });
  const receipt = await client.waitForTransactionReceipt({ hash, timeout: 60_000, pollingInterval: 250 });
  if (receipt.status !== "success") throw new Error(`deposit transaction reverted (${hash})`);
  await db().depositAddress.update({ where: { requestId: c.requestId }, data: { lastForwardedAt: new Date(nowMs()) } });
  return hash;
}

/**
 * Sends `amount` back to `to` under the request's refund reference for `to` (detection records it as a
 * refund): `pendingReturn` is set before sending, the Refund row (sender relayer, with the hash) written
 * with it cleared right after; a reverted return's row is cancelled.
 */
async function sendReturn(network: NetworkId, c: Candidate, to: string, amount: bigint, reason: Exclude<RefundReason, "requested">) {
  const client = publicClientFor(network)!;
  const signer = depositWalletFor(network)!;
  const request = { id: c.requestId, accountId: c.accountId, network: c.network, salt: c.salt, tokenAddress: c.tokenAddress };
  const reference = refundReferenceOf(request, to);
  const { request: call } = await client.simulateContract({
    account: signer.account,
    address: asEvmAddress(c.address),
    abi: depositAddressAbi,
    functionName: "giveBack",
    args: [asEvmAddress(to), amount, reference],
  });
  await db().depositAddress.update({ where: { requestId: c.requestId }, data: { pendingReturn: reason } });
  const hash = await signer.wallet.writeContract({ ...call, account: signer.account, chain: null });
  const refund = await db().$transaction(async (tx) => {
    const row = await insertRefund(tx, request, { to, amount, reason, sender: "relayer", txHash: hash });
    await tx.depositAddress.update({ where: { requestId: c.requestId }, data: { pendingReturn: null, lastForwardTxHash: hash } });
    return row;
  });
  const receipt = await client.waitForTransactionReceipt({ hash, timeout: 60_000, pollingInterval: 250 });
  if (receipt.status !== "success") {
    await db().refund.update({ where: { id: refund.id }, data: { status: "cancelled", cancelledAt: new Date(nowMs()) } });
    throw new Error(`return reverted (${hash})`);
  }
  log.info("deposit returned", { requestId: c.requestId, network, to, amount: amount.toString(), reason, txHash: hash });
}

/**
 * After a crash between sending a return and writing its Refund row: every Returned event of the
 * address without a row gets one (with the reason that was being sent), then the mark is cleared.
 */
async function reconcileReturns(client: PublicClient, c: Candidate): Promise<void> {
  const logs = await client.getLogs({
    address: asEvmAddress(c.address),
    event: returnedEvent,
    fromBlock: c.deployBlock ?? 0n,
    toBlock: "latest",
  });
  const request = { id: c.requestId, accountId: c.accountId, network: c.network, salt: c.salt, tokenAddress: c.tokenAddress };
  await db().$transaction(async (tx) => {
    const known = await tx.refund.findMany({ where: { requestId: c.requestId, sender: "relayer" }, select: { txHash: true } });
    const hashes = new Set(known.map((k) => k.txHash?.toLowerCase()));
    for (const l of logs) {
      if (!l.transactionHash || hashes.has(l.transactionHash.toLowerCase()) || !l.args.to || !l.args.amount) continue;
      const to: Address = l.args.to;
      await insertRefund(tx, request, {
        to,
        amount: l.args.amount,
        reason: c.pendingReturn!,
        sender: "relayer",
        txHash: l.transactionHash,
      });
      log.warn("a deposit return sent before a crash was recorded from the chain", { requestId: c.requestId, txHash: l.transactionHash });
    }
    await tx.depositAddress.update({ where: { requestId: c.requestId }, data: { pendingReturn: null } });
  });
}
