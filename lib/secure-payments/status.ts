import { nowMs } from "@/lib/clock";
import type { SecurePaymentStatus } from "@/lib/secure-payments/page-types";

/**
 * The one expiry rule of a link: a pending link past its expiry IS expired, whether or not the
 * expiry sweep has recorded it yet. Every reader (API, hosted page, pay plan) asks this, on the
 * one clock.
 */
export function linkStatus(sp: { status: string; expiresAt: Date }, at: number = nowMs()): SecurePaymentStatus {
  return sp.status === "pending" && sp.expiresAt.getTime() <= at ? "expired" : (sp.status as SecurePaymentStatus);
}
