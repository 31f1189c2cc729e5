import { db } from "@/lib/db";
import { linkStatus } from "@/lib/payments/link-status";
import { getRequestStatus } from "@/lib/requests/get-request";
import { toDeliveryDto } from "@/lib/webhooks/manage-deliveries";

/**
 * One request as the dashboard shows it: GET /v2/request/{id}'s view (same account scoping: another
 * account's request is "not found"), the payment link it belongs to, and every webhook delivery of
 * the events it raised, with their attempts.
 */
export async function requestDetail(accountId: string, requestId: string) {
  const status = await getRequestStatus(accountId, requestId);
  const [link, events] = await Promise.all([
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
