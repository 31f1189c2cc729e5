import { isEvmAddress, isTronAddress, sameAddress } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import { FIAT_PATH_DECIMALS } from "@/lib/chain/conversion";
import { isNetworkId } from "@/lib/chain/networks";
import { tokenOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import { invalidField } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";
import { type Direction, directionOf, isDirection, kindOf } from "@/lib/payments/direction";
import { wrongAmountsOf } from "@/lib/refunds/labels";
import { candidateIdsOf } from "./search-prefilter";

/**
 * GET /v2/payments: the reference's payment search over one account's detected payments, newest
 * first. Every filter is ANDed; the account is in the WHERE of every query. Duebill extension:
 * without any filter it lists all of the account's payments (the dashboard's list).
 */
export interface PaymentSearch {
  txHash?: string;
  walletAddress?: string;
  paymentReference?: string;
  requestId?: string;
  reference?: string;
  type?: "direct" | "conversion" | "crosschain" | "recurring";
  invoiceCurrency?: string;
  paymentCurrency?: string;
  network?: string;
  /** Which way money moved (lib/payments/direction.ts): money in or money out. */
  direction?: Direction;
  fromDate?: string;
  toDate?: string;
  limit?: string;
  offset?: string;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

export function dateOf(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined;
  const d = new Date(value);
  if (!ISO_UTC.test(value) || Number.isNaN(d.getTime())) throw invalidField(field, "must be an ISO 8601 date in UTC ending with Z");
  return d;
}

export function intOf(value: string | undefined, field: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,9}$/.test(value) || Number(value) > max)
    throw invalidField(field, `must be an integer from ${field === "limit" ? 1 : 0} to ${max}`);
  const n = Number(value);
  if (field === "limit" && n < 1) throw invalidField(field, `must be an integer from 1 to ${max}`);
  return n;
}

const symbolOf = (currency: string) => (currency.includes("-") ? currency.slice(0, currency.lastIndexOf("-")) : currency);

export async function searchPayments(accountId: string, q: PaymentSearch) {
  const from = dateOf(q.fromDate, "fromDate");
  const to = dateOf(q.toDate, "toDate");
  if (from && to && to < from) throw invalidField("toDate", "toDate must be after or equal to fromDate");
  const limit = intOf(q.limit, "limit", 20, 100);
  const offset = intOf(q.offset, "offset", 0, 1_000_000);
  if (q.walletAddress !== undefined && !isEvmAddress(q.walletAddress) && !isTronAddress(q.walletAddress))
    throw invalidField("walletAddress", "must be an EVM (0x…) or Tron (T…) address");
  if (q.network !== undefined && !isNetworkId(q.network)) throw invalidField("network", `Unknown network "${q.network}"`);
  if (q.direction !== undefined && !isDirection(q.direction)) throw invalidField("direction", "must be incoming or outgoing");
  // Request-level filters only: the account itself is on the payment row (Payment.accountId).
  const request: Prisma.PaymentRequestWhereInput = {};
  if (q.requestId) request.id = q.requestId;
  if (q.paymentReference) request.paymentReference = q.paymentReference.toLowerCase();
  if (q.reference) request.reference = q.reference;
  if (q.invoiceCurrency) request.invoiceCurrency = { startsWith: q.invoiceCurrency, mode: "insensitive" };
  if (q.paymentCurrency) request.paymentCurrency = { startsWith: q.paymentCurrency, mode: "insensitive" };
  if (q.type === "recurring") request.recurringScheduleId = { not: null };
  if (q.type === "direct") request.recurringScheduleId = null;
  if (q.direction) request.kind = kindOf(q.direction);
  const where: Prisma.PaymentWhereInput = { accountId };
  if (Object.keys(request).length > 0) where.request = { accountId, ...request };
  if (q.type === "conversion" || q.type === "crosschain") where.id = "none"; // Duebill records neither kind yet
  if (q.network) where.network = q.network;
  if (q.txHash) where.txHash = { equals: q.txHash, mode: "insensitive" };
  if (from || to) where.blockTime = { ...(from ? { gte: from } : {}), ...(to ? { lte: to } : {}) };
  if (q.walletAddress) {
    const w = q.walletAddress;
    const forms = w.startsWith("0x") ? { equals: w, mode: "insensitive" as const } : { equals: w };
    where.OR = [{ payer: forms }, { payee: forms }];
  }
  // Without any filter, or with only `network`, `paymentCurrency` and `direction`, the count is read
  // from the per-day rollup, which is kept per network, payment currency and request kind: no scan of
  // the account's payments (the search curve, scripts/bench/scale/search.ts).
  const rollupOnly =
    Object.keys(where).every((k) => k === "accountId" || k === "network" || k === "request") &&
    Object.keys(request).every((k) => k === "paymentCurrency" || k === "kind");
  // A wallet or transaction hash: the payments that can match, found through their indexes.
  const candidates = where.id === undefined ? await candidateIdsOf(accountId, q) : null;
  if (candidates) where.id = { in: candidates };
  const [total, rows] = await Promise.all([
    rollupOnly
      ? db()
          .paymentDaily.aggregate({
            where: {
              accountId,
              ...(q.network ? { network: q.network } : {}),
              ...(q.paymentCurrency ? { currency: { startsWith: q.paymentCurrency, mode: "insensitive" as const } } : {}),
              ...(q.direction ? { kind: kindOf(q.direction) } : {}),
            },
            _sum: { count: true },
          })
          .then((r) => r._sum.count ?? 0)
      : db().payment.count({ where }),
    db().payment.findMany({
      where,
      orderBy: [{ blockTime: "desc" }, { id: "desc" }],
      skip: offset,
      take: limit,
      include: { request: true },
    }),
  ]);
  // How each request was paid (lib/refunds/labels.ts): one read for the page's requests.
  const labels = await wrongAmountsOf([...new Map(rows.map((p) => [p.request.id, p.request])).values()]);
  return {
    payments: rows.map((p) => {
      const r = p.request;
      let decimals = 18;
      try {
        decimals = tokenOf(r).decimals;
      } catch {
        // an unknown stored currency: raw 18 decimals rather than a failed search
      }
      const fee = BigInt(p.feeAmount.toFixed());
      const conversion = isNetworkId(p.network) && networkRuntime(p.network).contracts.erc20ConversionProxy;
      return {
        id: p.id,
        amount: formatAmount(BigInt(p.amount.toFixed()), decimals),
        sourceNetwork: p.network,
        destinationNetwork: p.network,
        sourceTxHash: p.txHash,
        destinationTxHash: p.txHash,
        timestamp: p.blockTime.toISOString(),
        type: r.recurringScheduleId ? "recurring" : conversion && sameAddress(conversion, p.proxyAddress) ? "conversion" : "direct",
        conversionRateSource: null,
        conversionRateDestination: null,
        convertedAmountSource: null,
        convertedAmountDestination: null,
        currency: symbolOf(r.invoiceCurrency),
        paymentCurrency: symbolOf(r.paymentCurrency),
        fees:
          fee > 0n
            ? [
                {
                  type: "platform",
                  stage: "sending",
                  provider: "request-network",
                  amount: formatAmount(fee, decimals),
                  currency: symbolOf(r.paymentCurrency),
                  receiverAddress: p.feeAddress ?? "",
                  network: p.network,
                },
              ]
            : [],
        recurringPaymentId: r.recurringScheduleId,
        rateProvider: null,
        request: {
          requestId: r.id,
          paymentReference: r.paymentReference,
          hasBeenPaid: r.status === "paid",
          customerInfo: (r.customerInfo as Record<string, unknown> | null) ?? null,
          reference: r.reference,
          // Duebill extension: exact, over, under or late, and what was sent above the amount (its currency's decimals).
          amountLabel: labels.get(r.id)?.amountLabel ?? null,
          excessAmount: formatAmount(labels.get(r.id)?.excess ?? 0n, r.isConversion ? FIAT_PATH_DECIMALS : decimals),
        },
        // Duebill extensions: who paid whom, and which way money moved for the account.
        payer: p.payer,
        payee: p.payee,
        direction: directionOf(r.kind),
      };
    }),
    pagination: { total, limit, offset, hasMore: offset + rows.length < total },
  };
}
