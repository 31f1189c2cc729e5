import type { Principal } from "@/lib/auth/principal";
import { sameAddress } from "@/lib/chain/address";
import { NETWORKS } from "@/lib/chain/networks";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { AppError, invalidField } from "@/lib/errors";
import type { PaymentRequest, Prisma, SecurePayment } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";
import { linkStatus } from "@/lib/payments/link-status";
import { linkUrl } from "@/lib/secure-payments/create-secure-payment";

/**
 * `POST /v2/secure-payments/multicall-payouts`: a parent link over pending single payout links
 * (its children) of the account, paid from the creator's wallet in one batch transaction. Unlike
 * `batch-payouts`, the children stay links of their own (payable alone, each settled by its own
 * request); the parent is completed once every child is, and expires with its earliest child.
 * Children must share the EVM network, the currency and the creator wallet. Each child that
 * cannot join makes a failure of the reference's validation envelope (reason, messageKey,
 * context, recoveryAction); more than 150 children is the cap failure.
 */
export const MULTICALL_CAP = 150;

export type BlockReason =
  | "not_found"
  | "not_owned"
  | "not_outgoing"
  | "not_single_payment"
  | "invalid_child_linkage"
  | "already_paid"
  | "request_processing"
  | "secure_payment_expired"
  | "secure_payment_not_pending"
  | "compliance_failed"
  | "not_payable_child";

export interface MulticallInput {
  childTokens: string[];
  requestedExecutionKind?: "evm_same_chain" | "evm_cross_chain" | "tron_batch";
}

export type ChildRow = SecurePayment & { requests: { requestId: string; request: PaymentRequest }[] };

export interface Failure {
  securePaymentToken: string;
  reason: BlockReason;
  messageKey: string;
  context: Record<string, unknown>;
  recoveryAction: "remove_child" | "support_required";
}

const MESSAGES: Record<BlockReason, string> = {
  not_found: "no such secure payment",
  not_owned: "no such secure payment",
  not_outgoing: "is not a payout link",
  not_single_payment: "is not a single payout link",
  invalid_child_linkage:
    "cannot be paid together with the first child (network, currency, creator wallet or fee address differs, or it is in another pending multicall)",
  already_paid: "is already paid",
  request_processing: "has a payment in progress",
  secure_payment_expired: "has expired",
  secure_payment_not_pending: "is no longer pending",
  compliance_failed: "failed screening",
  not_payable_child: "cannot be paid",
};

/** Why a child link cannot be paid in a multicall now (null: it can), beside the linkage checks against its siblings. */
export function childBlockReason(c: ChildRow): BlockReason | null {
  const request = c.requests[0]?.request;
  if (c.direction !== "outgoing") return "not_outgoing";
  // A child merged into a batch link has lost its request to it: it is no longer pending, whatever else.
  if (c.status === "invalidated") return "secure_payment_not_pending";
  if (c.paymentType !== "single" || c.requests.length !== 1 || !request) return "not_single_payment";
  if (c.status === "compliance_failed") return "compliance_failed";
  if (request.status === "paid" || c.status === "completed") return "already_paid";
  const status = linkStatus(c, [request]);
  if (status === "expired") return "secure_payment_expired";
  if (status !== "pending") return "secure_payment_not_pending";
  // A partly paid child is in flight — unless its payment came without its whole fee (the fee rule's fee_short):
  // the parent's next transaction then sends exactly that missing fee (secure-payments/due.ts).
  if (request.status === "partially_paid" && request.subStatus !== "fee_short") return "request_processing";
  return null;
}

export function childContext(c: ChildRow, position: number) {
  const request = c.requests[0]?.request;
  return {
    requestId: request?.id ?? "",
    securePaymentToken: c.token,
    position,
    hasBeenPaid: request?.status === "paid",
    securePaymentStatus: linkStatus(
      c,
      c.requests.map((r) => r.request),
    ),
    requestStatus: request?.status ?? "unknown",
    expiresAt: c.expiresAt.toISOString(),
    network: c.network,
    currency: c.currency ?? "",
  };
}

function failure(token: string, reason: BlockReason, context: Record<string, unknown>): Failure {
  return {
    securePaymentToken: token,
    reason,
    messageKey: `secure_payment.multicall.${reason}`,
    context,
    recoveryAction: reason === "invalid_child_linkage" && context.inOtherMulticall ? "support_required" : "remove_child",
  };
}

function envelope(failures: Failure[], cap?: { type: string; maximum: number; actual: number; reduceBy: number }): AppError {
  return new AppError("multicall_validation_failed", "Multicall validation failed", {
    errors: cap
      ? [{ field: "childTokens", message: `at most ${cap.maximum} children (got ${cap.actual})` }]
      : failures.map((f) => ({ field: `childTokens.${f.context.position}`, message: `${f.securePaymentToken} ${MESSAGES[f.reason]}` })),
    extra: { failures, ...(cap ? { cap } : {}) },
  });
}

export async function createMulticallPayout(principal: Principal, body: MulticallInput) {
  if (body.requestedExecutionKind && body.requestedExecutionKind !== "evm_same_chain")
    throw invalidField(
      "requestedExecutionKind",
      `${body.requestedExecutionKind} multicalls are not supported: children on one EVM network are paid in one transaction (evm_same_chain)`,
    );
  const dup = body.childTokens.findIndex((t, i) => body.childTokens.indexOf(t) !== i);
  if (dup >= 0) throw invalidField(`childTokens.${dup}`, "lists a token twice");
  if (body.childTokens.length > MULTICALL_CAP)
    throw envelope([], {
      type: "child_count",
      maximum: MULTICALL_CAP,
      actual: body.childTokens.length,
      reduceBy: body.childTokens.length - MULTICALL_CAP,
    });
  const token = ulid();
  return db().$transaction(async (tx) => {
    // Locked, so a child cannot join two pending multicalls at once.
    await tx.$queryRaw`SELECT "token" FROM "SecurePayment" WHERE "token" = ANY(${body.childTokens}) FOR UPDATE`;
    const rows = await tx.securePayment.findMany({
      where: { token: { in: body.childTokens } },
      include: {
        requests: { include: { request: true }, orderBy: { position: "asc" } },
        multicallParents: { include: { parent: { select: { status: true, expiresAt: true } } } },
      },
    });
    const byToken = new Map(rows.map((r) => [r.token, r]));
    const failures: Failure[] = [];
    const children: ChildRow[] = [];
    body.childTokens.forEach((t, position) => {
      const c = byToken.get(t);
      // Another account's link is as unknown as a missing one: nothing about it is revealed.
      if (!c || c.accountId !== principal.accountId) {
        failures.push(failure(t, c ? "not_owned" : "not_found", { securePaymentToken: t, position }));
        return;
      }
      const reason = childBlockReason(c);
      if (reason) failures.push(failure(t, reason, childContext(c, position)));
      // That parent holds this child's unpaid request, so it is not paid: the expiry rule alone decides.
      else if (c.multicallParents.some((m) => linkStatus(m.parent, [c.requests[0]!.request]) === "pending"))
        failures.push(failure(t, "invalid_child_linkage", { ...childContext(c, position), inOtherMulticall: true }));
      else children.push(c);
    });
    const first = children[0];
    if (first) {
      if (NETWORKS[first.network as keyof typeof NETWORKS]?.kind !== "evm")
        throw invalidField("childTokens", "Tron payouts cannot be paid together: pay each link on its own (tron_batch is not supported)");
      const creator = first.requests[0]!.request.payer;
      const feeAddress = (c: ChildRow) => c.requests[0]!.request.feeAddress;
      // The batch contract sends every fee to one address: children with fees to different addresses cannot share a call.
      const feeTo = children.map(feeAddress).find((f) => f) ?? null;
      for (const c of children.slice(1)) {
        const payer = c.requests[0]!.request.payer;
        const fee = feeAddress(c);
        if (
          c.network !== first.network ||
          c.currency !== first.currency ||
          !creator ||
          !payer ||
          !sameAddress(payer, creator) ||
          (fee && feeTo && !sameAddress(fee, feeTo))
        )
          failures.push(failure(c.token, "invalid_child_linkage", childContext(c, body.childTokens.indexOf(c.token))));
      }
    }
    if (failures.length > 0) throw envelope(failures.sort((x, y) => Number(x.context.position) - Number(y.context.position)));
    const parent = await tx.securePayment.create({
      data: {
        token,
        accountId: principal.accountId,
        clientId: first!.clientId,
        orchestratorId: first!.orchestratorId,
        identityMode: first!.identityMode,
        whitelabel: first!.whitelabel,
        branding: (first!.branding ?? undefined) as Prisma.InputJsonValue | undefined,
        direction: "outgoing",
        paymentType: "multicall",
        network: first!.network,
        currency: first!.currency,
        executionKind: body.requestedExecutionKind ?? null,
        expiresAt: new Date(Math.min(...children.map((c) => c.expiresAt.getTime()))),
        multicallChildren: { create: children.map((c, position) => ({ childToken: c.token, position })) },
      },
    });
    return {
      type: "multicall" as const,
      token,
      securePaymentUrl: linkUrl(token),
      status: "pending" as const,
      expiresAt: parent.expiresAt.toISOString(),
      createdAt: parent.createdAt.toISOString(),
      items: children.map((c, position) => ({
        securePaymentToken: c.token,
        requestId: c.requests[0]!.requestId,
        position,
        eligibility: "eligible" as const,
      })),
    };
  });
}

/** A multicall parent with its children (ordered) and their requests; null when `token` is not a multicall parent. */
export async function loadMulticall(token: string): Promise<LoadedMulticall | null> {
  const parent = await db().securePayment.findUnique({ where: { token } });
  if (parent?.paymentType !== "multicall") return null;
  return { parent, children: await multicallChildrenOf(token) };
}

export interface LoadedMulticall {
  parent: SecurePayment;
  children: ChildRow[];
}

/** A multicall parent's children, in order, with their requests (the parent already loaded). */
export async function multicallChildrenOf(parentToken: string): Promise<ChildRow[]> {
  const rows = await db().multicallChild.findMany({
    where: { parentToken },
    orderBy: { position: "asc" },
    include: { child: { include: { requests: { include: { request: true }, orderBy: { position: "asc" } } } } },
  });
  return rows.map((m) => m.child);
}

/** Completes the pending multicall parents of `childTokens` whose every child is completed. */
export async function settleMulticallParents(childTokens: readonly string[]): Promise<number> {
  if (childTokens.length === 0) return 0;
  const parents = await db().multicallChild.findMany({
    where: { childToken: { in: [...childTokens] }, parent: { status: "pending" } },
    select: { parentToken: true },
  });
  let settled = 0;
  for (const parentToken of new Set(parents.map((p) => p.parentToken))) {
    const open = await db().multicallChild.count({ where: { parentToken, child: { status: { not: "completed" } } } });
    if (open > 0) continue;
    // Paid from the creator's wallet: the payer its children recorded.
    const paidBy = await db().multicallChild.findFirst({
      where: { parentToken, child: { payerAddress: { not: null } } },
      orderBy: { position: "asc" },
      select: { child: { select: { payerAddress: true } } },
    });
    const { count } = await db().securePayment.updateMany({
      where: { token: parentToken, status: "pending" },
      data: { status: "completed", completedAt: now(), payerAddress: paidBy?.child.payerAddress ?? null },
    });
    settled += count;
  }
  return settled;
}
