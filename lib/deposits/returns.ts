import { type Address, getAddress, type PublicClient, parseAbiItem, parseEventLogs } from "viem";
import { depositAddressAbi } from "@/contracts/generated/abis.generated";
import { erc20FeeProxyAbi } from "@/lib/chain/abis";
import { asEvmAddress, sameAddress } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { type DepositCandidate, depositBalanceOf, depositInflowsOf, sendDepositTx } from "@/lib/deposits/deposit-io";
import { depositWalletFor } from "@/lib/deposits/relayer";
import type { ExcessPolicy, RefundReason } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { EXCHANGE_WARNING } from "@/lib/refunds/prepare";
import { recordRefundTransfer } from "@/lib/refunds/record";
import { insertRefund, refundReferenceOf } from "@/lib/refunds/store";

/**
 * Duebill's own deposit addresses (contracts/src/DuebillDepositAddress.sol): the payee is paid what it
 * is owed first; what the request did not ask for follows the link's policy — sent back to its sender,
 * or forwarded to the payee (detection then offers it: lib/refunds/offer.ts). docs/guides/refunds.md.
 */

/** What a step holds the deposit for (a send, then up to a minute for its receipt). */
const STEP_LEASE_MS = 90_000;
const returnedEvent = parseAbiItem("event Returned(address indexed to, uint256 amount, bytes8 refundReference)");

/** Why money that should have gone back was forwarded to the payee instead: the offered refund's warning. */
export const RETURN_BLOCKED = {
  contract:
    "The payer paid from a contract (a smart wallet, or an exchange's or a service's address): Duebill did not send the money back " +
    "automatically. Check that the address can receive it (or ask the payer where to send it) before refunding.",
  several: "Several wallets sent money to this payment's deposit address: check who is owed what before sending.",
} as const;

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

export async function settleDuebillDeposit(network: NetworkId, c: DepositCandidate): Promise<{ forwarded: number; returned: number }> {
  const client = publicClientFor(network)!;
  const address = asEvmAddress(c.address);
  if (c.pendingReturn) await reconcileReturns(client, c);
  const read = <T>(functionName: "owed" | "feeDue") => client.readContract({ address, abi: depositAddressAbi, functionName }) as Promise<T>;
  const [inflow, balance, owed, feeDue] = await Promise.all([
    depositInflowsOf(client, c),
    depositBalanceOf(client, c),
    read<bigint>("owed"),
    read<bigint>("feeDue"),
  ]);
  if (balance === 0n) return { forwarded: 0, returned: 0 };
  const { depositors } = inflow;
  let returnTo: string | null = null;
  let blocked: string | null = null;
  // Only a return needs to know where it goes (one sender, not a contract).
  if (c.policy === "return" && depositors.length > 1) blocked = RETURN_BLOCKED.several;
  else if (c.policy === "return" && depositors[0]) {
    const code = await client.getCode({ address: asEvmAddress(depositors[0]) });
    if (code && code !== "0x") blocked = RETURN_BLOCKED.contract;
    else returnTo = depositors[0];
  }
  await db().depositAddress.update({
    where: { requestId: c.requestId },
    data: { depositors, lateAmount: inflow.late.toString(), ...(blocked ? { autoReturnBlocked: blocked } : {}) },
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
    // Each step may wait a minute for its receipt: the lease is renewed so no other worker takes the deposit meanwhile.
    await db().depositAddress.update({ where: { requestId: c.requestId }, data: { leaseUntil: new Date(nowMs() + STEP_LEASE_MS) } });
    if (step.kind === "forward") {
      const { request } = await client.simulateContract({
        account: signer.account,
        address,
        abi: depositAddressAbi,
        functionName: "forward",
        args: [step.toPayee],
      });
      await sendDepositTx(network, c, () => signer.wallet.writeContract({ ...request, account: signer.account, chain: null }));
      log.info("deposit forwarded", { requestId: c.requestId, network, toPayee: step.toPayee.toString(), depositors });
      done.forwarded += 1;
    } else {
      await sendReturn(network, c, returnTo!, step.amount, step.reason);
      done.returned += 1;
    }
  }
  return done;
}

/**
 * Sends `amount` back to `to` under the request's refund reference for `to` (detection records it as a
 * refund). The Refund row (sender relayer, prepared) is written before sending, with `pendingReturn`, so
 * detection knows the reference whatever block it reaches first; the hash and status sent follow the
 * send. A crash in between leaves `pendingReturn` set: reconcileReturns matches the row to the chain's
 * Returned event, or cancels it when nothing was sent (the lease and the relayer's pending-nonce check
 * in lib/deposits/sweep.ts mean no transaction of it is still in flight then). A reverted return's row is cancelled.
 */
async function sendReturn(network: NetworkId, c: DepositCandidate, to: string, amount: bigint, reason: Exclude<RefundReason, "requested">) {
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
  // A return goes to whoever sent the tokens: for an exchange withdrawal, the exchange's hot wallet (docs/guides/refunds.md).
  const refund = await db().$transaction(async (tx) => {
    const row = await insertRefund(tx, request, { to, amount, reason, sender: "relayer", warning: EXCHANGE_WARNING });
    await tx.depositAddress.update({ where: { requestId: c.requestId }, data: { pendingReturn: reason } });
    return row;
  });
  const hash = await signer.wallet.writeContract({ ...call, account: signer.account, chain: null });
  await db().$transaction([
    // Only a row still prepared: detection may already have confirmed it.
    db().refund.updateMany({
      where: { id: refund.id, status: "prepared" },
      data: { txHash: hash, status: "sent", sentAt: new Date(nowMs()) },
    }),
    db().depositAddress.update({ where: { requestId: c.requestId }, data: { pendingReturn: null, lastForwardTxHash: hash } }),
  ]);
  const receipt = await client.waitForTransactionReceipt({ hash, timeout: 60_000, pollingInterval: 250 });
  if (receipt.status !== "success") {
    await db().refund.updateMany({
      where: { id: refund.id, status: { not: "confirmed" } },
      data: { status: "cancelled", cancelledAt: new Date(nowMs()) },
    });
    throw new Error(`return reverted (${hash})`);
  }
  log.info("deposit returned", { requestId: c.requestId, network, to, amount: amount.toString(), reason, txHash: hash });
}

/**
 * After a crash around sending a return (`pendingReturn` still set): each Returned event of the address
 * gets its Refund row — the prepared row written for it (same address and amount, no hash yet), else a
 * new one with the reason that was being sent — and prepared rows no event matches were never sent:
 * cancelled. Then each such return whose block detection may already have passed is recorded from its
 * receipt's fee-proxy log (confirmed, payment.refunded written; idempotent with detection).
 */
async function reconcileReturns(client: PublicClient, c: DepositCandidate): Promise<void> {
  const logs = await client.getLogs({
    address: asEvmAddress(c.address),
    event: returnedEvent,
    fromBlock: c.deployBlock ?? 0n,
    toBlock: "latest",
  });
  const request = { id: c.requestId, accountId: c.accountId, network: c.network, salt: c.salt, tokenAddress: c.tokenAddress };
  const toRecord: `0x${string}`[] = [];
  await db().$transaction(async (tx) => {
    const known = await tx.refund.findMany({ where: { requestId: c.requestId, sender: "relayer" } });
    const hashes = new Set(known.filter((k) => k.status === "confirmed").map((k) => k.txHash?.toLowerCase()));
    const sentHashes = new Set(known.map((k) => k.txHash?.toLowerCase()));
    const unsent = known.filter((k) => k.status === "prepared" && !k.txHash);
    for (const l of logs) {
      if (!l.transactionHash || !l.args.to || !l.args.amount || hashes.has(l.transactionHash.toLowerCase())) continue;
      toRecord.push(l.transactionHash);
      if (sentHashes.has(l.transactionHash.toLowerCase())) continue;
      const to: Address = l.args.to;
      const amount = l.args.amount;
      const i = unsent.findIndex((r) => sameAddress(r.toAddress, to) && BigInt(r.amount.toFixed()) === amount);
      if (i >= 0) {
        const [row] = unsent.splice(i, 1);
        await tx.refund.update({ where: { id: row!.id }, data: { txHash: l.transactionHash, status: "sent", sentAt: new Date(nowMs()) } });
      } else {
        await insertRefund(tx, request, {
          to,
          amount,
          reason: c.pendingReturn!,
          sender: "relayer",
          warning: EXCHANGE_WARNING,
          txHash: l.transactionHash,
        });
      }
      log.warn("a deposit return sent before a crash was recorded from the chain", { requestId: c.requestId, txHash: l.transactionHash });
    }
    if (unsent.length > 0)
      await tx.refund.updateMany({
        where: { id: { in: unsent.map((r) => r.id) }, status: "prepared" },
        data: { status: "cancelled", cancelledAt: new Date(nowMs()) },
      });
    await tx.depositAddress.update({ where: { requestId: c.requestId }, data: { pendingReturn: null } });
  });
  for (const hash of toRecord) await recordReturnFromReceipt(client, c, hash);
}

/**
 * Records a mined return from its receipt, as detection would (lib/refunds/record.ts): detection's cursor
 * may have passed its block before the row existed. Only once the block is final for detection
 * (the network's confirmations); a younger one detection records itself.
 */
async function recordReturnFromReceipt(client: PublicClient, c: DepositCandidate, hash: `0x${string}`): Promise<void> {
  const rt = networkRuntime(c.network as NetworkId);
  const receipt = await client.getTransactionReceipt({ hash });
  const head = await client.getBlockNumber({ cacheTime: 0 });
  if (receipt.status !== "success" || receipt.blockNumber + BigInt(rt.confirmations) > head) return;
  const proxy = rt.contracts.erc20FeeProxy;
  const events = parseEventLogs({ abi: erc20FeeProxyAbi, eventName: "TransferWithReferenceAndFee", logs: receipt.logs }).filter(
    (l) => !!proxy && sameAddress(l.address, proxy),
  );
  if (events.length === 0) return;
  const block = await client.getBlock({ blockHash: receipt.blockHash });
  const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: c.requestId } });
  for (const e of events) {
    if (!e.args.tokenAddress || !e.args.to || e.args.amount === undefined || !e.args.paymentReference) continue;
    await recordRefundTransfer(request, {
      txHash: hash,
      logIndex: e.logIndex,
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
      blockTime: new Date(Number(block.timestamp) * 1000),
      tokenAddress: e.args.tokenAddress,
      to: e.args.to,
      amount: e.args.amount,
      referenceHash: e.args.paymentReference,
      from: getAddress(receipt.from),
      txTo: receipt.to ? getAddress(receipt.to) : null,
    });
  }
}
