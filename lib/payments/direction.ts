import type { RequestKind } from "@/lib/generated/prisma/enums";

/**
 * Which way money moved, from the account's side, decided by the kind of the request a payment
 * pays (never by comparing addresses: the payee of a request is any address the account names).
 * - `incoming`: kind `request` — the account asked to be paid (POST /v2/request, a payment link
 *   of POST /v2/secure-payments): it is the request's payee.
 * - `outgoing`: kind `payout` — the account pays someone else (POST /v2/payouts, batch payouts,
 *   payout links of POST /v2/secure-payments/payouts, and every payment of a recurring schedule).
 * A refund of an incoming payment (issue 28) is money out of that direction's total: the overview's
 * "Received" totals are net of the payee's confirmed refunds (lib/requests/account-overview.ts).
 */
export const DIRECTIONS = ["incoming", "outgoing"] as const;
export type Direction = (typeof DIRECTIONS)[number];
/** Each direction in words, on every page: totals, headings, the chart's legend and the filter ("In"/"Out" is only the short badge). */
export const DIRECTION_LABELS: Record<Direction, string> = { incoming: "Received", outgoing: "Paid out" };

const KIND_OF: Record<Direction, RequestKind> = { incoming: "request", outgoing: "payout" };

export function directionOf(kind: RequestKind): Direction {
  return kind === "payout" ? "outgoing" : "incoming";
}

export function kindOf(direction: Direction): RequestKind {
  return KIND_OF[direction];
}

export function isDirection(value: unknown): value is Direction {
  return value === "incoming" || value === "outgoing";
}
