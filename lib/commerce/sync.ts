import { formatLog, type Hex, type Log, parseEventLogs, toHex } from "viem";
import { commerceEscrowAbi } from "@/contracts/generated/abis.generated";
import { networkOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import { writeOutboxEvent } from "@/lib/events/outbox";
import type { CommercePayment } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";
import { log } from "@/lib/log";
import { canReadChain, chainClient } from "./chain";
import { commerceEventPayload, type EscrowKind, EVENT_OF_KIND } from "./events";
import { amountsOf, statusOf } from "./state";

const KIND_OF_EVENT: Record<string, EscrowKind> = {
  PaymentAuthorized: "authorized",
  PaymentCaptured: "captured",
  PaymentVoided: "voided",
  PaymentReclaimed: "reclaimed",
  PaymentRefunded: "refunded",
};

const COLUMN: Record<EscrowKind, "authorizedAmount" | "capturedAmount" | "voidedAmount" | "reclaimedAmount" | "refundedAmount"> = {
  authorized: "authorizedAmount",
  captured: "capturedAmount",
  voided: "voidedAmount",
  reclaimed: "reclaimedAmount",
  refunded: "refundedAmount",
};

/**
 * Applies the escrow's events for this payment (from a relayed transaction's receipt, or read back by
 * syncCommercePayment): each (txHash, logIndex) once — the CommerceEscrowEvent row's unique key decides,
 * inside the transaction that moves the amounts and writes the webhook, so a receipt and a later read of
 * the same log (or two concurrent syncs) change the state and send the webhook exactly once.
 */
export async function applyEscrowLogs(cp: CommercePayment, logs: readonly Log[]): Promise<CommercePayment> {
  const events = parseEventLogs({ abi: commerceEscrowAbi, logs: logs as Log[] }).filter(
    (e) => e.address.toLowerCase() === cp.escrowAddress.toLowerCase() && (e.args as { paymentId: Hex }).paymentId === cp.paymentId,
  );
  let current = cp;
  for (const e of events) {
    const kind = KIND_OF_EVENT[e.eventName];
    if (!kind) continue;
    const args = e.args as { amount: bigint; feeAmount?: bigint };
    current = await db().$transaction(async (tx) => {
      const inserted = await tx.commerceEscrowEvent.createMany({
        data: [
          {
            id: ulid(),
            commercePaymentId: cp.id,
            kind,
            amount: args.amount.toString(),
            feeAmount: (args.feeAmount ?? 0n).toString(),
            txHash: e.transactionHash,
            logIndex: e.logIndex,
            blockNumber: e.blockNumber,
          },
        ],
        skipDuplicates: true,
      });
      const row = await tx.commercePayment.findUniqueOrThrow({ where: { id: cp.id } });
      if (inserted.count === 0) return row;
      const next = amountsOf(row);
      const inc = { [COLUMN[kind]]: { increment: args.amount.toString() } };
      if (kind === "authorized") next.authorized += args.amount;
      if (kind === "captured") {
        next.captured += args.amount;
        next.fee += args.feeAmount ?? 0n;
      }
      if (kind === "voided") next.voided += args.amount;
      if (kind === "reclaimed") next.reclaimed += args.amount;
      if (kind === "refunded") next.refunded += args.amount;
      const updated = await tx.commercePayment.update({
        where: { id: cp.id },
        data: {
          ...inc,
          ...(kind === "captured" ? { capturedFee: { increment: (args.feeAmount ?? 0n).toString() } } : {}),
          ...(kind === "authorized" ? { authorizedAt: new Date() } : {}),
          status: statusOf(next),
        },
      });
      const request = await tx.paymentRequest.findUniqueOrThrow({ where: { id: cp.requestId } });
      const block = await chainClient(networkOf(cp)).getBlock({ blockNumber: e.blockNumber });
      await writeOutboxEvent(tx, {
        accountId: cp.accountId,
        clientId: cp.clientId,
        type: EVENT_OF_KIND[kind],
        dedupeKey: `commerce:${e.transactionHash}:${e.logIndex}`,
        payload: commerceEventPayload(request, updated, {
          kind,
          amount: args.amount,
          feeAmount: args.feeAmount ?? 0n,
          txHash: e.transactionHash,
          at: new Date(Number(block.timestamp) * 1000),
        }),
        requestId: cp.requestId,
      });
      return updated;
    });
  }
  return current;
}

/** Reads the escrow's events for the payment from the chain (from the block it was created at) and applies them. */
export async function syncCommercePayment(cp: CommercePayment): Promise<CommercePayment> {
  const client = chainClient(networkOf(cp));
  // Raw eth_getLogs: every event of the escrow has paymentId as its first indexed topic.
  const raw = await client.request({
    method: "eth_getLogs",
    params: [{ address: cp.escrowAddress as Hex, fromBlock: toHex(cp.fromBlock), toBlock: "latest", topics: [null, cp.paymentId as Hex] }],
  });
  return applyEscrowLogs(
    cp,
    raw.map((l) => formatLog(l)),
  );
}

/**
 * The sweep: brings every open payment (created, or with money still in the escrow) up to date, so
 * what the payer or an operator wallet did on chain (authorize by allowance, reclaim, a /calldata
 * capture) becomes a state and a webhook without anyone calling the API.
 */
export async function syncOpenCommercePayments(limit = 200): Promise<number> {
  const open = await db().commercePayment.findMany({
    where: { status: { in: ["created", "authorized", "partially_captured", "captured", "partially_refunded"] } },
    orderBy: { updatedAt: "asc" },
    take: limit,
  });
  let synced = 0;
  for (const cp of open) {
    if (!canReadChain(networkOf(cp))) continue;
    try {
      await syncCommercePayment(cp);
      synced++;
    } catch (err) {
      log.warn("commerce sync failed", { id: cp.id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return synced;
}
