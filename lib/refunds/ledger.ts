import type { Prisma, Refund } from "@/lib/generated/prisma/client";

/** Refund statuses that hold back what the payee can still refund: everything but a cancelled refund. */
export const HOLDING_STATUSES = ["prepared", "sent", "confirmed"] as const;

/**
 * A request's money as refunds see it, in the payment token's base units. `received` is what the
 * payee got (the payments' amounts; the fee legs went to the fee address and are `feeKept`);
 * `held` what the payee's refunds take from it (confirmed, sent, or prepared and not cancelled);
 * `refunded` the payee's confirmed refunds (PaymentRequest.amountRefunded); `returned` what the
 * deposit relayer sent back (never reached the payee). `refundable` never goes below 0: a refund
 * sent outside Duebill (the same calldata twice) is recorded as the chain shows it.
 */
export interface RefundLedger {
  received: bigint;
  feeKept: bigint;
  held: bigint;
  refunded: bigint;
  returned: bigint;
  refundable: bigint;
}

const units = (d: { toFixed(): string } | null | undefined) => (d ? BigInt(d.toFixed()) : 0n);

/** The ledger of one request from its payments' sums and its refund rows. */
export function ledgerOf(
  payments: { amount: bigint; feeAmount: bigint },
  refunds: readonly Pick<Refund, "amount" | "status" | "sender">[],
): RefundLedger {
  let held = 0n;
  let refunded = 0n;
  let returned = 0n;
  for (const r of refunds) {
    const amount = units(r.amount);
    if (r.sender === "payee" && (HOLDING_STATUSES as readonly string[]).includes(r.status)) held += amount;
    if (r.status === "confirmed") {
      if (r.sender === "payee") refunded += amount;
      else returned += amount;
    }
  }
  const refundable = payments.amount > held ? payments.amount - held : 0n;
  return { received: payments.amount, feeKept: payments.feeAmount, held, refunded, returned, refundable };
}

/** The ledger read from the database, in the caller's transaction (after its row lock, when it writes). */
export async function readLedger(tx: Prisma.TransactionClient, requestId: string): Promise<RefundLedger> {
  const [paid, refunds] = await Promise.all([
    tx.payment.aggregate({ where: { requestId }, _sum: { amount: true, feeAmount: true } }),
    tx.refund.findMany({ where: { requestId }, select: { amount: true, status: true, sender: true } }),
  ]);
  return ledgerOf({ amount: units(paid._sum.amount), feeAmount: units(paid._sum.feeAmount) }, refunds);
}

/**
 * Locks a request's row until the transaction ends: refund preparations and refund recordings of
 * one request run one after the other, so two concurrent refunds cannot both take what remains.
 */
export async function lockRequest(tx: Prisma.TransactionClient, requestId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "PaymentRequest" WHERE id = ${requestId} FOR UPDATE`;
}

/** The request's refund status: refunded once the payee's confirmed refunds reach what it received. */
export function refundStatusOf(l: Pick<RefundLedger, "received" | "refunded">): "none" | "partially_refunded" | "refunded" {
  if (l.refunded <= 0n) return "none";
  return l.refunded >= l.received ? "refunded" : "partially_refunded";
}
