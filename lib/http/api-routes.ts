/**
 * Every route file under /v1, /v2 and /api with the methods it exports: proxy.ts answers an
 * unknown path with the JSON 404 and a method a route does not serve with the JSON 405 (Next
 * would answer its HTML 404 page and an empty 405), and sends CORS preflights on. It must stay
 * free of imports (the proxy runs on every request and loads only this); tests/http/proxy.test.ts
 * checks it against the route files on disk, so a new route file fails that test until it is
 * listed here.
 */
export type RouteMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

export const API_ROUTES: Readonly<Record<string, readonly RouteMethod[]>> = {
  "/api/auth/{...nextauth}": ["GET", "POST"],
  "/api/bench/empty": ["GET"],
  "/api/bench/insert": ["POST"],
  "/api/bench/limited": ["GET"],
  "/api/bench/read/{id}": ["GET"],
  "/api/bench/unlimited": ["GET"],
  "/api/cors-preflight": ["OPTIONS"],
  "/api/cron/deposits": ["GET", "POST"],
  "/api/cron/detect": ["GET", "POST"],
  "/api/cron/expire": ["GET", "POST"],
  "/api/cron/recurring": ["GET", "POST"],
  "/api/cron/webhooks": ["GET", "POST"],
  "/api/health": ["GET"],
  "/api/receipt-keys": ["GET"],
  "/v1/auth/login": ["POST"],
  "/v1/auth/logout": ["POST"],
  "/v1/auth/register": ["POST"],
  "/v1/auth/session": ["GET"],
  "/v1/auth/wallet/challenge": ["POST"],
  "/v1/auth/wallet/verify": ["POST"],
  "/v1/client-ids": ["GET", "POST"],
  "/v1/client-ids/{id}": ["GET", "PUT", "DELETE"],
  "/v1/payee-destination": ["GET", "POST"],
  "/v1/payee-destination/deactivate": ["POST"],
  "/v1/payee-destination/lookup": ["GET"],
  "/v1/payee-destination/payout-lookup": ["GET"],
  "/v1/payee-destination/signing-data": ["GET"],
  "/v1/payee-destination/{destinationId}": ["GET", "DELETE"],
  "/v1/request/{paymentReference}/stop-recurrence": ["PATCH"],
  "/v1/webhook": ["GET", "POST"],
  "/v1/webhook/test": ["POST"],
  "/v1/webhook/{id}": ["PUT", "DELETE"],
  "/v1/webhook/{id}/deliveries": ["GET"],
  "/v1/webhook/{id}/deliveries/{deliveryId}/redeliver": ["POST"],
  "/v2/client-ids": ["GET", "POST"],
  "/v2/client-ids/orchestrator-links": ["GET"],
  "/v2/client-ids/{id}": ["GET", "PUT", "DELETE"],
  "/v2/client-ids/{id}/orchestrator-link": ["GET", "DELETE"],
  "/v2/commerce-payments/authorize/calldata": ["POST"],
  "/v2/commerce-payments/{requestId}/authorize": ["POST"],
  "/v2/commerce-payments/{requestId}/capture": ["POST"],
  "/v2/commerce-payments/{requestId}/capture/calldata": ["POST"],
  "/v2/commerce-payments/{requestId}/refund": ["POST"],
  "/v2/commerce-payments/{requestId}/refund/calldata": ["POST"],
  "/v2/commerce-payments/{requestId}/status": ["GET"],
  "/v2/commerce-payments/{requestId}/void": ["POST"],
  "/v2/commerce-payments/{requestId}/void/calldata": ["POST"],
  "/v2/currencies": ["GET"],
  "/v2/currencies/{currencyId}/conversion-routes": ["GET"],
  "/v2/exports/{kind}": ["GET"],
  "/v2/onboarding/complete": ["POST"],
  "/v2/openapi.json": ["GET"],
  "/v2/orchestrators/branding": ["GET", "POST", "PATCH", "DELETE"],
  "/v2/orchestrators/client-id-link-intents": ["POST"],
  "/v2/orchestrators/client-ids": ["GET", "POST"],
  "/v2/orchestrators/client-ids/{clientId}": ["DELETE"],
  "/v2/orchestrators/fee-configs": ["GET", "POST"],
  "/v2/orchestrators/fee-configs/{id}": ["PATCH", "DELETE"],
  "/v2/orchestrators/webhooks": ["GET", "POST"],
  "/v2/orchestrators/webhooks/test": ["POST"],
  "/v2/orchestrators/webhooks/{id}": ["PATCH", "DELETE"],
  "/v2/payee-destination": ["GET", "POST"],
  "/v2/payee-destination/signing-data": ["GET"],
  "/v2/payee-destination/{destinationId}": ["GET", "DELETE"],
  "/v2/payer": ["POST"],
  "/v2/payer/{clientUserId}": ["GET", "PATCH"],
  "/v2/payer/{clientUserId}/payment-details": ["GET", "POST"],
  "/v2/payments": ["GET"],
  "/v2/payments/{paymentId}/receipt": ["GET"],
  "/v2/payouts": ["POST"],
  "/v2/payouts/batch": ["POST"],
  "/v2/payouts/recurring/{id}": ["GET", "POST", "PATCH"],
  "/v2/payouts/recurring/{id}/policy": ["PUT"],
  "/v2/payouts/recurring-policy": ["GET", "PUT"],
  "/v2/receipts/{receiptId}": ["GET"],
  "/v2/receipts/{receiptId}/pdf": ["GET"],
  "/v2/request": ["GET", "POST"],
  "/v2/request/payment-intents/{paymentIntentId}": ["POST"],
  "/v2/request/{requestId}": ["GET", "PATCH"],
  "/v2/request/{requestId}/pay": ["GET"],
  "/v2/request/{requestId}/invoice/pdf": ["GET"],
  "/v2/request/{requestId}/refunds": ["GET", "POST"],
  "/v2/request/{requestId}/refunds/{refundId}": ["GET"],
  "/v2/request/{requestId}/refunds/{refundId}/cancel": ["POST"],
  "/v2/request/{requestId}/refunds/{refundId}/receipt": ["GET"],
  "/v2/request/{requestId}/refunds/{refundId}/sent": ["POST"],
  "/v2/request/{requestId}/routes": ["GET"],
  "/v2/secure-payments": ["GET", "POST"],
  "/v2/secure-payments/batch-payouts": ["POST"],
  "/v2/secure-payments/fees/preview": ["POST"],
  "/v2/secure-payments/multicall-payouts": ["POST"],
  "/v2/secure-payments/multicall-payouts/{token}": ["GET"],
  "/v2/secure-payments/payouts": ["POST"],
  "/v2/secure-payments/{token}": ["GET"],
  "/v2/secure-payments/{token}/calldata": ["POST"],
  "/v2/secure-payments/{token}/deposit-address": ["POST"],
  "/v2/secure-payments/{token}/gasless": ["GET", "POST"],
  "/v2/secure-payments/{token}/intent": ["POST"],
  "/v2/secure-payments/{token}/invoice/pdf": ["GET"],
  "/v2/secure-payments/{token}/payer-email": ["POST"],
  "/v2/secure-payments/{token}/pay": ["GET"],
  "/v2/secure-payments/{token}/refresh-step-transaction": ["POST"],
  "/v2/secure-payments/{token}/tron/broadcast": ["POST"],
  "/v2/subscriptions/{token}/permit": ["GET", "POST"],
  "/v2/x402/facilitator/settle": ["POST"],
  "/v2/x402/facilitator/supported": ["GET"],
  "/v2/x402/facilitator/verify": ["POST"],
  "/v2/x402/requests/{requestId}": ["GET"],
  "/v2/x402/secure-payments/{token}": ["GET"],
};

export interface MatchedRoute {
  /** The route's path template, e.g. `/v2/currencies/{currencyId}/conversion-routes`. */
  template: string;
  /** What it answers: its methods, HEAD with GET, and OPTIONS (always). */
  allow: string[];
}

const COMPILED = Object.entries(API_ROUTES).map(([template, methods]) => ({
  template,
  segments: template.split("/").slice(1),
  methods,
}));

/** Decoded segments of a pathname; null when an escape is malformed. */
function segmentsOf(pathname: string): string[] | null {
  try {
    return pathname
      .replace(/\/+$/, "")
      .split("/")
      .slice(1)
      .map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
}

/**
 * The route a pathname is served by, as Next picks it: at the first segment where two
 * templates differ, a literal segment beats a `{param}`. Null: no route file serves it.
 */
export function matchApiRoute(pathname: string): MatchedRoute | null {
  const segs = segmentsOf(pathname);
  if (!segs) return null;
  let best: (typeof COMPILED)[number] | undefined;
  for (const route of COMPILED) {
    // A catch-all `{...name}` (last) takes one segment or more.
    const catchAll = route.segments.at(-1)?.startsWith("{...") === true;
    if (catchAll ? segs.length < route.segments.length : route.segments.length !== segs.length) continue;
    if (!route.segments.every((s, i) => s.startsWith("{") || s === segs[i])) continue;
    if (!best || moreSpecific(route.segments, best.segments)) best = route;
  }
  if (!best) return null;
  const allow = new Set<string>(best.methods);
  if (allow.has("GET")) allow.add("HEAD");
  allow.add("OPTIONS");
  return { template: best.template, allow: [...allow] };
}

function moreSpecific(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const aParam = a[i]!.startsWith("{");
    const bParam = b[i]!.startsWith("{");
    if (aParam !== bParam) return !aParam;
  }
  return false;
}
