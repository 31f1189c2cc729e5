import { sameAddress } from "@/lib/chain/address";
import { db } from "@/lib/db";
import { writeOutboxEvent } from "@/lib/events/outbox";
import { paymentRefundedPayload } from "@/lib/events/refunded";
import type { PaymentRequest, Refund, RefundSender } from "@/lib/generated/prisma/client";
import { issueRefundReceipt, receiptUrlOrNull } from "@/lib/receipts/issue";
import { lockRequest, readLedger, refundStatusOf } from "@/lib/refunds/ledger";
import { insertRefund } from "@/lib/refunds/store";

/**
 * The fields of a detected fee-proxy transfer a refund needs (lib/detection/types.ts TransferEvent
 * has them all; declared here so refunds do not depend on detection, which depends on them).
 */
export interface RefundTransfer {
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  blockTime: Date;
  tokenAddress: string;
  to: string;
  amount: bigint;
  referenceHash: string;
  /** Transaction sender, when known. */
  from: string | null;
  /** The contract the transaction called, when known. */
  txTo?: string | null;
  /** The contract that emitted the event (the fee proxy), when known: the refund's receipt names it. */
  proxyAddress?: string;
}

export type RefundRecordResult = "recorded" | "duplicate" | "ignored";

/**
 * The requests whose refund references (PaymentRequest ids by Refund.referenceHash) the given
 * topics name, on one network: a refund is known to detection once Duebill has a Refund row of
 * its reference (prepared, offered, or recorded before).
 */
export async function refundRequestsByHash(network: string, hashes: readonly string[]): Promise<Map<string, PaymentRequest>> {
  if (hashes.length === 0) return new Map();
  const rows = await db().refund.findMany({
    where: { network, referenceHash: { in: hashes.map((h) => h.toLowerCase()) } },
    distinct: ["referenceHash"],
    select: { referenceHash: true, request: true },
  });
  return new Map(rows.map((r) => [r.referenceHash.toLowerCase(), r.request]));
}

const sameHash = (a: string | null, b: string) => a !== null && a.replace(/^0x/i, "").toLowerCase() === b.replace(/^0x/i, "").toLowerCase();

/**
 * The refund row a transfer confirms: the one its wallet reported this transaction for (even if it
 * was cancelled meanwhile: it landed after all), else — among the rows of its sender, the payee's
 * or the deposit relayer's — the oldest unconfirmed one (prepared or sent) of the same amount, else
 * the oldest unconfirmed one; null when none is waiting (a refund sent outside Duebill, or the same
 * calldata sent twice).
 */
function matchRefund(candidates: readonly Refund[], ev: RefundTransfer, sender: RefundSender): Refund | null {
  const open = candidates.filter((r) => r.logIndex === null && r.status !== "confirmed");
  const unconfirmed = open.filter((r) => r.sender === sender && (r.status === "prepared" || r.status === "sent"));
  return (
    open.find((r) => sameHash(r.txHash, ev.txHash)) ??
    unconfirmed.find((r) => BigInt(r.amount.toFixed()) === ev.amount) ??
    unconfirmed[0] ??
    null
  );
}

/**
 * Records one refund transfer, exactly once, in one transaction: the request's row is locked, the
 * transfer (the request's token, to the refund's address, under its refund reference) confirms the
 * matching Refund row — or becomes a new confirmed one, since the chain is the truth — with its
 * log's coordinates (the unique (network, txHash, logIndex) makes a re-scan a no-op); a payee's
 * refund adds to PaymentRequest.amountRefunded in SQL; and a payment.refunded outbox event is
 * written (the deposit relayer's returns too).
 */
export async function recordRefundTransfer(request: PaymentRequest, ev: RefundTransfer): Promise<RefundRecordResult> {
  if (!sameAddress(ev.tokenAddress, request.tokenAddress)) return "ignored";
  return db().$transaction(async (tx) => {
    await lockRequest(tx, request.id);
    const seen = await tx.refund.findFirst({ where: { network: request.network, txHash: ev.txHash, logIndex: ev.logIndex } });
    if (seen) return "duplicate";
    const candidates = await tx.refund.findMany({
      where: { requestId: request.id, referenceHash: ev.referenceHash.toLowerCase() },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    // The reference is computed from the refund address: a transfer under it to another address is not this refund.
    if (candidates.length === 0 || !sameAddress(candidates[0]!.toAddress, ev.to)) return "ignored";
    // A transaction that called the request's deposit address is the deposit relayer's; any other, the payee's wallet's.
    const deposit = ev.txTo ? await tx.depositAddress.findUnique({ where: { requestId: request.id }, select: { address: true } }) : null;
    const sender: RefundSender = deposit?.address && ev.txTo && sameAddress(deposit.address, ev.txTo) ? "relayer" : "payee";
    const row =
      matchRefund(candidates, ev, sender) ??
      (await insertRefund(tx, request, {
        to: candidates[0]!.toAddress,
        amount: ev.amount,
        reason: "requested",
        sender,
        txHash: ev.txHash,
      }));
    const confirmed = await tx.refund.update({
      where: { id: row.id },
      data: {
        status: "confirmed",
        amount: ev.amount.toString(),
        txHash: ev.txHash,
        logIndex: ev.logIndex,
        blockNumber: ev.blockNumber,
        blockHash: ev.blockHash,
        blockTime: ev.blockTime,
        sentAt: row.sentAt ?? new Date(),
        confirmedAt: new Date(),
        cancelledAt: null,
      },
    });
    // Under the row lock, so concurrent recordings add correctly.
    const updated =
      confirmed.sender === "payee"
        ? await tx.paymentRequest.update({ where: { id: request.id }, data: { amountRefunded: { increment: ev.amount.toString() } } })
        : await tx.paymentRequest.findUniqueOrThrow({ where: { id: request.id } });
    const ledger = await readLedger(tx, request.id);
    const refunded = BigInt(updated.amountRefunded.toFixed());
    const receipt = await issueRefundReceipt(tx, confirmed.id, ev.proxyAddress ?? null);
    await writeOutboxEvent(tx, {
      accountId: request.accountId,
      clientId: request.clientId,
      type: "payment.refunded",
      dedupeKey: `payment.refunded:${request.network}:${ev.txHash}:${ev.logIndex}`,
      payload: paymentRefundedPayload(
        updated,
        confirmed,
        {
          refunded,
          returned: ledger.returned,
          refundStatus: refundStatusOf({ received: ledger.received, refunded }),
        },
        receiptUrlOrNull(receipt),
      ),
      requestId: request.id,
    });
    return "recorded";
  });
}
