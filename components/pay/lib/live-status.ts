import type { Checkout, CheckoutStatus } from "@/lib/operations/checkout-schemas";

/**
 * What the whole pay page knows about its link, as one state: the summary's badge, the pay panels
 * and the outcome all read it, so they change together. Several sources feed it — the server's
 * render (again after each router.refresh), the link poll, the deposit poll — and their answers
 * can arrive in any order; the state only ever moves forward, so an answer that left before the
 * payment settled cannot turn "Payment complete" back into "Awaiting payment".
 */

/** due: something is left to pay; received: nothing is due, settlement (screening) is under way; then the final statuses. */
export type LivePhase = "due" | "received" | Exclude<CheckoutStatus, "pending">;

/** How far a plain transfer to the deposit address got: nothing yet, part of the amount, all of it. */
export type TransferSeen = "none" | "part" | "full";

export interface LiveState {
  phase: LivePhase;
  /** The view that brought the current phase (the outcome's payer, transaction, redirect). */
  view: Checkout;
  transfer: TransferSeen;
}

export type LiveEvent =
  /** A view of the link: the server's render or a poll's answer. */
  | { type: "view"; view: Checkout }
  /** An answer of the deposit poll: what the deposit address holds now (its forwarding empties it again). */
  | { type: "deposit"; received: string; remaining: string };

const PHASE_RANK: Record<LivePhase, number> = { due: 0, received: 1, completed: 2, expired: 2, invalidated: 2, compliance_failed: 2 };
const TRANSFER_RANK: Record<TransferSeen, number> = { none: 0, part: 1, full: 2 };

export function phaseOf(view: Pick<Checkout, "status" | "items">): LivePhase {
  if (view.status !== "pending") return view.status;
  return view.items.some((i) => i.state === "due") ? "due" : "received";
}

/** A final phase: nothing on the page changes any more, polling stops. */
export function isFinal(phase: LivePhase): boolean {
  return PHASE_RANK[phase] === 2;
}

export function initialLiveState(view: Checkout): LiveState {
  return { phase: phaseOf(view), view, transfer: "none" };
}

function transferOf(received: string, remaining: string): TransferSeen {
  if (received === "0") return "none";
  return remaining === "0" ? "full" : "part";
}

/** One answer applied: a phase or transfer that would move backwards is ignored; a final phase is never left. */
export function liveReducer(state: LiveState, event: LiveEvent): LiveState {
  if (event.type === "deposit") {
    const seen = transferOf(event.received, event.remaining);
    return TRANSFER_RANK[seen] > TRANSFER_RANK[state.transfer] ? { ...state, transfer: seen } : state;
  }
  const phase = phaseOf(event.view);
  if (PHASE_RANK[phase] < PHASE_RANK[state.phase]) return state;
  // A final phase is kept with the view that brought it (a later answer says the same, or less).
  if (isFinal(state.phase)) return state;
  return { ...state, phase, view: event.view };
}
