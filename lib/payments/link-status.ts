import { nowMs } from "@/lib/clock";
import { Prisma } from "@/lib/generated/prisma/client";

/** A secure payment link's status (interface "Secure payment"). */
export type SecurePaymentStatus = "pending" | "completed" | "expired" | "invalidated" | "compliance_failed";

/**
 * The one expiry rule of a link, on the one clock: a pending link past its expiry IS expired,
 * whether or not the expiry sweep has recorded it yet — unless every one of its requests is
 * paid. A paid link never expires: it stays pending until it is settled (completed, or
 * compliance_failed when screening rejects the payer), however long screening is down; its
 * payer has paid and payment.confirmed has gone out. `requests` are the link's requests (a
 * multicall parent: its children's); the expiry sweep applies the same rule in SQL
 * (lib/secure-payments/settle.ts, with PAID_LINK_SQL).
 */
export function linkStatus(
  sp: { status: string; expiresAt: Date },
  requests: readonly { status: string }[],
  at: number = nowMs(),
): SecurePaymentStatus {
  if (sp.status !== "pending" || sp.expiresAt.getTime() > at) return sp.status as SecurePaymentStatus;
  return isPaid(requests) ? "pending" : "expired";
}

/** Every request of the link is paid (a link with no requests is not). */
export function isPaid(requests: readonly { status: string }[]): boolean {
  return requests.length > 0 && requests.every((r) => r.status === "paid");
}

/**
 * isPaid in SQL, for the link aliased `sp`: it has requests (its own, or a multicall parent's
 * children's) and none of them is unpaid. The expiry sweep and the dashboard's counts use it.
 */
export const PAID_LINK_SQL = Prisma.sql`(
  (EXISTS (SELECT 1 FROM "SecurePaymentRequest" x WHERE x."securePaymentToken" = sp.token)
    AND NOT EXISTS (SELECT 1 FROM "SecurePaymentRequest" x JOIN "PaymentRequest" pr ON pr.id = x."requestId"
      WHERE x."securePaymentToken" = sp.token AND pr.status <> 'paid'))
  OR (EXISTS (SELECT 1 FROM "MulticallChild" mc JOIN "SecurePaymentRequest" x ON x."securePaymentToken" = mc."childToken"
      WHERE mc."parentToken" = sp.token)
    AND NOT EXISTS (SELECT 1 FROM "MulticallChild" mc JOIN "SecurePaymentRequest" x ON x."securePaymentToken" = mc."childToken"
      JOIN "PaymentRequest" pr ON pr.id = x."requestId" WHERE mc."parentToken" = sp.token AND pr.status <> 'paid')))`;
