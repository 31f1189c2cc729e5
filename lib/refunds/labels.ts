import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import type { Payment, PaymentRequest, Prisma, Refund, RefundReason } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";

/**
 * Wrong amounts, labelled (BVNK's OVER / UNDER / LATE; Request Network's `excessAmount`). Every request
 * and link says how it was paid:
 * - null: nothing paid yet, or paid in part while its link can still take the rest (or it has no link);
 * - `exact`: what the payer sent is the amount;
 * - `over`: more; `excessAmount` is the difference (what the payer sent: what reached the payee plus
 *   what the deposit relayer returned — a returned excess is still an overpayment);
 * - `under`: its link expired (or was cancelled) with 0 < sent < amount;
 * - `late`: money came after its link had expired: recorded on the request (the chain is the truth),
 *   the link stays expired, and the link's policy applies to the whole late amount.
 * Amounts are in the request's owed units (token base units; a conversion request's invoice currency at
 * 8 decimals). docs/guides/refunds.md.
 */
export type AmountLabel = "exact" | "over" | "under" | "late";

/** A link's states that close it to payments: past its expiry and not completed (pending or expired). */
const SETTLED = new Set(["completed", "compliance_failed", "invalidated"]);

export interface LabelFacts {
  /** expectedAmount and amountPaid (owed units). */
  expected: bigint;
  paid: bigint;
  /** The request's payments: credited amount (owed units), block time, and the deposit address it was forwarded from. */
  payments: readonly { amount: bigint; blockTime: Date; depositAddress: string | null }[];
  /** The request's link; null: no link (a request never closes). */
  link: { status: string; expiresAt: Date } | null;
  /** What reached the request's deposit address after its link expired (DepositAddress.lateAmount). */
  depositLate: bigint;
  /** The deposit relayer's returns (Refund rows with sender relayer, not cancelled). */
  returns: readonly { amount: bigint; reason: RefundReason }[];
}

export interface WrongAmount {
  amountLabel: AmountLabel | null;
  /** What the payer sent above the amount ("0" when none): paid + returned − expected. */
  excess: bigint;
  /** What the deposit relayer sent back (never reached the payee). */
  returned: bigint;
  /** What reached the payee after the link expired, and in time. */
  lateReceived: bigint;
  onTimeReceived: bigint;
  /** The link is past its expiry and not completed: `under` applies. */
  closed: boolean;
}

/** When the link stopped taking payments (its expiry; a cancel sets it to the cancel time), or null while it cannot close. */
export function closingOf(link: LabelFacts["link"]): Date | null {
  return link && !SETTLED.has(link.status) ? link.expiresAt : null;
}

/**
 * A request's label from its facts, at `at`. A payment forwarded from the request's deposit address
 * carries the forward's block time (the relayer may forward an underpaid balance after the expiry): its
 * lateness is the deposit address's own (what reached the address after the expiry), first in first out.
 */
export function wrongAmountOf(f: LabelFacts, at: Date = now()): WrongAmount {
  const closeAt = closingOf(f.link);
  const closed = closeAt !== null && closeAt.getTime() <= at.getTime();
  const sum = (xs: readonly { amount: bigint }[]) => xs.reduce((s, x) => s + x.amount, 0n);
  const lateDirect = closeAt ? sum(f.payments.filter((p) => !p.depositAddress && p.blockTime.getTime() > closeAt.getTime())) : 0n;
  const forwarded = sum(f.payments.filter((p) => p.depositAddress));
  const returnedLate = sum(f.returns.filter((r) => r.reason === "late"));
  const lateLeft = f.depositLate - returnedLate;
  const lateViaDeposit = lateLeft <= 0n ? 0n : lateLeft < forwarded ? lateLeft : forwarded;
  const lateReceived = lateDirect + lateViaDeposit;
  const onTimeReceived = f.paid > lateReceived ? f.paid - lateReceived : 0n;
  const returned = sum(f.returns);
  const total = f.paid + returned;
  const excess = total > f.expected ? total - f.expected : 0n;
  let amountLabel: AmountLabel | null = null;
  if (total === 0n) amountLabel = null;
  else if (lateReceived > 0n || returnedLate > 0n) amountLabel = "late";
  else if (total > f.expected) amountLabel = "over";
  else if (total === f.expected) amountLabel = "exact";
  else if (closed) amountLabel = "under";
  return { amountLabel, excess, returned, lateReceived, onTimeReceived, closed };
}

/**
 * A link's label from its requests': late if any is late, over if any is over, exact when every one is
 * exact, under when it closed with something (not everything) sent; its excess the sum of theirs.
 */
export function linkWrongAmount(parts: readonly (WrongAmount & { expected: bigint; sent: bigint })[]): WrongAmount {
  const sum = (k: "excess" | "returned" | "lateReceived" | "onTimeReceived" | "expected" | "sent") => parts.reduce((s, p) => s + p[k], 0n);
  const closed = parts.some((p) => p.closed);
  let amountLabel: AmountLabel | null = null;
  if (parts.some((p) => p.amountLabel === "late")) amountLabel = "late";
  else if (parts.some((p) => p.amountLabel === "over")) amountLabel = "over";
  else if (parts.length > 0 && parts.every((p) => p.amountLabel === "exact")) amountLabel = "exact";
  else if (closed && sum("sent") > 0n && sum("sent") < sum("expected")) amountLabel = "under";
  return {
    amountLabel,
    excess: sum("excess"),
    returned: sum("returned"),
    lateReceived: sum("lateReceived"),
    onTimeReceived: sum("onTimeReceived"),
    closed,
  };
}

type LabelRequest = Pick<PaymentRequest, "id" | "expectedAmount" | "amountPaid" | "isConversion">;
const units = (d: { toFixed(): string }) => BigInt(d.toFixed());

/**
 * The facts of some requests, read in four queries (in `client`: detection's transaction, or the pool):
 * their payments, links, deposit addresses' late part and the relayer's returns.
 */
export async function labelFactsOf(
  requests: readonly LabelRequest[],
  client: Prisma.TransactionClient = db(),
): Promise<Map<string, LabelFacts>> {
  const ids = requests.map((r) => r.id);
  if (ids.length === 0) return new Map();
  const [payments, links, deposits, returns] = await Promise.all([
    client.payment.findMany({
      where: { requestId: { in: ids } },
      select: { requestId: true, amount: true, invoiceAmount: true, blockTime: true, depositAddress: true },
    }),
    client.securePaymentRequest.findMany({
      where: { requestId: { in: ids } },
      select: { requestId: true, securePayment: { select: { status: true, expiresAt: true } } },
    }),
    client.depositAddress.findMany({ where: { requestId: { in: ids } }, select: { requestId: true, lateAmount: true } }),
    client.refund.findMany({
      where: { requestId: { in: ids }, sender: "relayer", status: { not: "cancelled" } },
      select: { requestId: true, amount: true, reason: true },
    }),
  ]);
  const out = new Map<string, LabelFacts>();
  for (const r of requests) {
    out.set(
      r.id,
      labelFactsFrom(r, {
        payments: payments.filter((p) => p.requestId === r.id),
        link: links.find((l) => l.requestId === r.id)?.securePayment ?? null,
        depositLate: deposits.find((d) => d.requestId === r.id)?.lateAmount ?? null,
        returns: returns.filter((x) => x.requestId === r.id),
      }),
    );
  }
  return out;
}

type FactPayment = Pick<Payment, "amount" | "invoiceAmount" | "blockTime" | "depositAddress">;

/**
 * One request's facts from its rows (labelFactsOf's queries, or GET /v2/request/{id}'s one read):
 * `returns` are the relayer's returns only (sender relayer, not cancelled).
 */
export function labelFactsFrom(
  r: LabelRequest,
  rows: {
    payments: readonly FactPayment[];
    link: LabelFacts["link"];
    depositLate: { toFixed(): string } | null;
    returns: readonly Pick<Refund, "amount" | "reason">[];
  },
): LabelFacts {
  return {
    expected: units(r.expectedAmount),
    paid: units(r.amountPaid),
    payments: rows.payments.map((p) => ({
      // What the payment credited: a conversion request counts its invoice amount.
      amount: units(r.isConversion && p.invoiceAmount ? p.invoiceAmount : p.amount),
      blockTime: p.blockTime,
      depositAddress: p.depositAddress,
    })),
    link: rows.link,
    depositLate: units(rows.depositLate ?? { toFixed: () => "0" }),
    returns: rows.returns.map((x) => ({ amount: units(x.amount), reason: x.reason })),
  };
}

/** The labels of some requests (GET /v2/request/{id}, the link views, webhooks). */
export async function wrongAmountsOf(
  requests: readonly LabelRequest[],
  client: Prisma.TransactionClient = db(),
  at: Date = now(),
): Promise<Map<string, WrongAmount>> {
  const facts = await labelFactsOf(requests, client);
  return new Map([...facts].map(([id, f]) => [id, wrongAmountOf(f, at)]));
}

/** A link's label from its requests (loaded with their facts). */
export async function linkWrongAmountOf(
  requests: readonly LabelRequest[],
  client: Prisma.TransactionClient = db(),
  at: Date = now(),
): Promise<WrongAmount> {
  const labels = await wrongAmountsOf(requests, client, at);
  return linkWrongAmount(
    requests.map((r) => {
      const w = labels.get(r.id)!;
      return { ...w, expected: units(r.expectedAmount), sent: units(r.amountPaid) + w.returned };
    }),
  );
}

/** The API's fields of a label: `amountLabel`, `excessAmount` (Request Network's name) and `returnedAmount`, human decimals. */
export function wrongAmountFields(w: WrongAmount, decimals: number) {
  return {
    amountLabel: w.amountLabel,
    excessAmount: formatAmount(w.excess, decimals),
    returnedAmount: formatAmount(w.returned, decimals),
  };
}

/** No payment yet: what a request without facts reads. */
export const NO_WRONG_AMOUNT: WrongAmount = {
  amountLabel: null,
  excess: 0n,
  returned: 0n,
  lateReceived: 0n,
  onTimeReceived: 0n,
  closed: false,
};
