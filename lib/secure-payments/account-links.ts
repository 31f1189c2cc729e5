import { db } from "@/lib/db";
import { linkStatus, type SecurePaymentStatus } from "@/lib/payments/link-status";

export interface AccountLink {
  token: string;
  paymentType: string;
  /** The first request's amount and currency (null for a multicall parent, which has none of its own). */
  first: { amount: string; paymentCurrency: string } | null;
  requestCount: number;
  /** A multicall parent's number of payouts. */
  multicallPayouts: number;
  reference: string | null;
  description: string | null;
  createdAt: Date;
  status: SecurePaymentStatus;
  /** A payment came without its whole fee: the link waits for the fee (detection's subStatus). */
  feeShort: boolean;
  /** The transaction the payer's wallet submitted, waiting for detection (informational only). */
  submittedTxHash: string | null;
}

/** The account's latest payment links with their status by the one expiry rule (the dashboard's links page). */
export async function listAccountLinks(accountId: string, take = 50): Promise<AccountLink[]> {
  const links = await db().securePayment.findMany({
    where: { accountId },
    orderBy: { createdAt: "desc" },
    take,
    include: {
      requests: { include: { request: { select: { amount: true, paymentCurrency: true, status: true, subStatus: true } } } },
      // A multicall's requests are its children's (the expiry rule: a paid link never expires).
      multicallChildren: {
        select: { child: { select: { requests: { select: { request: { select: { status: true, subStatus: true } } } } } } },
      },
    },
  });
  return links.map((l) => {
    const first = l.requests[0]?.request;
    const requests = l.paymentType === "multicall" ? l.multicallChildren.flatMap((m) => m.child.requests) : l.requests;
    const status = linkStatus(
      l,
      requests.map((r) => r.request),
    );
    return {
      token: l.token,
      paymentType: l.paymentType,
      first: first ? { amount: first.amount, paymentCurrency: first.paymentCurrency } : null,
      requestCount: l.requests.length,
      multicallPayouts: l.multicallChildren.length,
      reference: l.reference,
      description: l.description,
      createdAt: l.createdAt,
      status,
      feeShort: status === "pending" && requests.some((r) => r.request.subStatus === "fee_short"),
      submittedTxHash: l.intentTxHash,
    };
  });
}
