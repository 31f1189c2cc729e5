import { nowMs } from "@/lib/clock";
import { env } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";
import { linkUrl } from "@/lib/secure-payments/create-secure-payment";

/**
 * The hosted payment link of a recurring request's period (docs/guides/recurring.md "Recurring
 * requests"): a single incoming secure payment over that one request, written in the transaction
 * that writes the request, so a period exists with its link or not at all. Exactly once per period
 * as the request is (the sweep's row lock and (recurrenceId, recurrenceIndex)), and
 * SecurePaymentRequest.requestId is unique besides.
 *
 * Expiry: the same SECURE_PAYMENT_TTL_HOURS as every link, from the period's creation. The link's
 * expiry is what the hosted page, deposit addresses and the underpaid/late policy already go by;
 * the request itself stays payable by its /pay calldata afterwards, as before links existed.
 */

interface PeriodRequest {
  id: string;
  accountId: string;
  clientId?: string | null;
  network: string;
  invoiceCurrency: string;
  paymentCurrency: string;
  isConversion?: boolean;
  reference?: string | null;
}

/**
 * Only a request invoiced in its payment token gets a link: the hosted page shows and collects the
 * token amount, while a fiat invoice's amount is fixed only when it is paid (conversion or a quote).
 */
export function hasPeriodLink(r: PeriodRequest): boolean {
  return !r.isConversion && r.invoiceCurrency === r.paymentCurrency;
}

/** Writes the period's link in `tx` (null for a fiat invoice, see hasPeriodLink); returns its token. */
export async function createPeriodLink(tx: Prisma.TransactionClient, r: PeriodRequest): Promise<string | null> {
  if (!hasPeriodLink(r)) return null;
  const token = ulid();
  await tx.securePayment.create({
    data: {
      token,
      accountId: r.accountId,
      clientId: r.clientId ?? null,
      // As the dashboard's and API's links: a client ID's rows, or the account's own (manual_dashboard).
      identityMode: r.clientId ? "client_id" : "manual_dashboard",
      direction: "incoming",
      paymentType: "single",
      network: r.network,
      currency: r.paymentCurrency,
      executionKind: r.network === "tron" ? "tron_batch" : "evm_same_chain",
      expiresAt: new Date(nowMs() + env().SECURE_PAYMENT_TTL_HOURS * 3_600_000),
      reference: r.reference ?? null,
      requests: { create: [{ requestId: r.id, position: 0 }] },
    },
  });
  return token;
}

/** The link's URL on GET /v2/request/{id}, named as POST /v2/secure-payments answers it. */
export function periodLinkUrl(token: string | null | undefined): { securePaymentUrl?: string } {
  return token ? { securePaymentUrl: linkUrl(token) } : {};
}
