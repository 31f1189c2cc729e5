import { isLocalChain, storedTermsOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import { formatAmount, parseAmount } from "@/lib/money";
import { linkStatus } from "@/lib/payments/link-status";
import { refundableRequestOrThrow } from "@/lib/refunds";
import { getRequestStatus } from "@/lib/requests/get-request";
import { toDeliveryDto } from "@/lib/webhooks/manage-deliveries";

/**
 * One request as the dashboard shows it: GET /v2/request/{id}'s view (same account scoping: another
 * account's request is "not found"), the payment link it belongs to, and every webhook delivery of
 * the events it raised, with their attempts.
 */
export async function requestDetail(accountId: string, requestId: string) {
  const status = await getRequestStatus(accountId, requestId);
  const [link, events, row] = await Promise.all([
    db().securePaymentRequest.findUnique({
      where: { requestId: status.requestId },
      select: {
        securePayment: {
          select: {
            token: true,
            status: true,
            expiresAt: true,
            accountId: true,
            intentTxHash: true,
            intentAt: true,
            requests: { select: { request: { select: { status: true } } } },
          },
        },
      },
    }),
    db().outboxEvent.findMany({
      where: { accountId, requestId: status.requestId },
      orderBy: { createdAt: "asc" },
      select: { id: true, type: true, createdAt: true },
    }),
    db().paymentRequest.findUniqueOrThrow({ where: { id: status.requestId }, select: { kind: true } }),
  ]);
  const deliveries = events.length
    ? await db().webhookDelivery.findMany({
        where: { eventId: { in: events.map((e) => e.id) }, endpoint: { accountId } },
        orderBy: { createdAt: "asc" },
        include: { attemptLog: true, endpoint: { select: { id: true, url: true } } },
      })
    : [];
  const sp = link?.securePayment;
  // Read time (linkStatus): a pending link past its expiry reads expired before the sweep records it.
  const linkState = sp
    ? linkStatus(
        sp,
        sp.requests.map((r) => r.request),
      )
    : null;
  return {
    request: status,
    refunding: row.kind === "request" ? refundingOf(status) : null,
    link:
      sp && sp.accountId === accountId
        ? {
            token: sp.token,
            status: linkState,
            // The payer's wallet returned this hash; detection has not confirmed a payment yet.
            processing:
              linkState === "pending" && sp.intentTxHash && status.status !== "paid"
                ? { txHash: sp.intentTxHash, since: sp.intentAt?.toISOString() ?? null }
                : null,
          }
        : null,
    events: events.map((e) => ({ id: e.id, type: e.type, createdAt: e.createdAt.toISOString() })),
    deliveries: deliveries.map((d) => ({ ...toDeliveryDto(d), endpointId: d.endpoint.id, url: d.endpoint.url })),
  };
}

/** What the dashboard's refund form checks an amount with: the request's token decimals (another account's request is "not found"). */
export async function refundFormContext(accountId: string, requestId: string): Promise<{ decimals: number }> {
  const row = await refundableRequestOrThrow(accountId, requestId);
  return { decimals: storedTermsOf(row).token.decimals };
}

/**
 * What the request page's refund panel needs beside GET /v2/request/{id}'s view: the token's
 * decimals (the form's check), where a refund goes by default (the request's payer, else its first
 * payment's: prepareRefund's default), the fee the payments' fee legs left with the fee address
 * (never refunded), and the chain the payee's wallet sends on (its RPC only for a local devnet: a
 * public chain's wallet uses its own). Only incoming requests are refunded: a payout has none.
 */
function refundingOf(r: Awaited<ReturnType<typeof getRequestStatus>>) {
  const { network, runtime, token } = storedTermsOf({ network: r.network, paymentCurrency: r.paymentCurrency });
  // Formatted amounts back to units ("0" is none: parseAmount takes positive amounts only).
  const units = (v: string) => (/[1-9]/.test(v) ? parseAmount(v, token.decimals, "amount") : 0n);
  const received = r.payments.reduce((sum, p) => sum + units(p.amount), 0n);
  const feeKept = r.payments.reduce((sum, p) => sum + units(p.feeAmount), 0n);
  return {
    decimals: token.decimals,
    symbol: token.symbol,
    payer: r.payer,
    /** What the payee received (the payments' amounts, fee legs excluded): what refunds are capped by. */
    received: formatAmount(received, token.decimals),
    feeKept: formatAmount(feeKept, token.decimals),
    chain: {
      kind: runtime.network.kind,
      chainId: runtime.network.chainId,
      name: runtime.network.name,
      testnet: runtime.network.testnet,
      nativeSymbol: runtime.network.nativeSymbol,
      rpcUrl: isLocalChain(network) ? runtime.rpcUrl : null,
      explorerTxUrl: runtime.explorerTxUrl,
    },
  };
}
