import { isNetworkId } from "@/lib/chain/networks";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError, invalidField, notFound } from "@/lib/errors";
import type { PaymentRequest } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";
import { tokenAt } from "@/lib/relayer";
import { linkDepositUnavailable } from "@/lib/secure-payments/excess";
import { loadLink } from "@/lib/secure-payments/page-data";
import { getPublicLinkOrThrow } from "@/lib/secure-payments/pay-link";
import { settlePayment } from "@/lib/x402/facilitator";
import { ensureRequirements } from "@/lib/x402/requirements";
import {
  decodeHeader,
  encodeHeader,
  PAYMENT_REQUIRED,
  PAYMENT_RESPONSE,
  PAYMENT_SIGNATURE,
  type PaymentRequired,
  paymentPayloadSchema,
  type SettleResponse,
  X_PAYMENT,
  X402_VERSION,
} from "@/lib/x402/wire";

/**
 * The x402 resource of a request or a link: GET without a payment answers 402 with the `accepts[]`
 * (PAYMENT-REQUIRED header, the same JSON as the body); GET with a PAYMENT-SIGNATURE settles it
 * (lib/x402/facilitator.ts) and answers 200 with the resource and the PAYMENT-RESPONSE header. The
 * resource is what was paid for: the request's payment status (a link: its public view, as the hosted
 * page reads it). Sending the same PAYMENT-SIGNATURE again returns the same settlement and the
 * resource as it is now (paid once the deposit sweep forwarded it and detection recorded it).
 */
export interface X402Target {
  request: PaymentRequest;
  resource: { url: string; description: string; mimeType: string };
  /** The resource, read when it is served (after the settlement). */
  view: () => Promise<unknown>;
}

const REQUEST_ID = /^[0-9a-fA-F]{2,66}$/;

export async function requestTarget(requestId: string): Promise<X402Target> {
  const request = REQUEST_ID.test(requestId) ? await db().paymentRequest.findUnique({ where: { id: requestId } }) : null;
  if (!request) throw notFound("Request not found");
  return {
    request,
    resource: {
      url: `${env().APP_URL}/v2/x402/requests/${request.id}`,
      description: "Payment of a Duebill request",
      mimeType: "application/json",
    },
    view: async () => requestView(await db().paymentRequest.findUniqueOrThrow({ where: { id: request.id } })),
  };
}

export async function linkTarget(token: string): Promise<X402Target> {
  const link = await loadLink(token);
  const request = link?.requests[0];
  if (!link || !request) throw notFound("Secure payment not found");
  const why = linkDepositUnavailable(link.sp, link.requests);
  if (why) throw new AppError("conflict", why);
  return {
    request,
    resource: {
      url: `${env().APP_URL}/v2/x402/secure-payments/${token}`,
      description: "Payment of a Duebill link",
      mimeType: "application/json",
    },
    view: () => getPublicLinkOrThrow(token),
  };
}

/** A request's payment status: what a paying machine client gets for its payment. */
export function requestView(r: PaymentRequest) {
  const token = isNetworkId(r.network) ? tokenAt(r.network, r.tokenAddress) : undefined;
  const decimals = token?.decimals ?? 0;
  const units = (d: { toFixed(): string }) => BigInt(d.toFixed());
  return {
    requestId: r.id,
    status: r.status,
    network: r.network,
    currency: { symbol: token?.symbol ?? r.paymentCurrency, address: r.tokenAddress, decimals },
    amount: formatAmount(units(r.expectedAmount), decimals),
    amountPaid: formatAmount(units(r.amountPaid), decimals),
    paidAt: r.paidAt?.toISOString() ?? null,
  };
}

function paymentRequiredResponse(body: PaymentRequired, settlement?: SettleResponse): Response {
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store" };
  headers[PAYMENT_REQUIRED] = encodeHeader(body);
  if (settlement) headers[PAYMENT_RESPONSE] = encodeHeader(settlement);
  return new Response(JSON.stringify(body), { status: 402, headers });
}

export async function serveX402(req: Request, target: X402Target): Promise<Response> {
  const field = req.headers.has(PAYMENT_SIGNATURE) ? "PAYMENT-SIGNATURE" : "X-PAYMENT";
  const header = req.headers.get(PAYMENT_SIGNATURE) ?? req.headers.get(X_PAYMENT);
  if (!header) {
    const accepts = [await ensureRequirements(target.request)];
    return paymentRequiredResponse({ x402Version: X402_VERSION, resource: target.resource, accepts });
  }
  const decoded = decodeHeader(header.trim());
  if (decoded === null) throw invalidField(field, "must be base64 of the x402 PaymentPayload JSON");
  if ((decoded as { x402Version?: unknown })?.x402Version === 1)
    throw invalidField(field, "x402 version 1 is not supported: send a version 2 PaymentPayload in PAYMENT-SIGNATURE");
  const parsed = paymentPayloadSchema.safeParse(decoded);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidField([field, ...issue.path.map(String)].join("."), issue.message);
  }
  const payload = parsed.data;
  const deposit = await db().depositAddress.findUnique({ where: { requestId: target.request.id } });
  if (!deposit?.address || deposit.address.toLowerCase() !== payload.accepted.payTo.toLowerCase()) {
    const accepts = [await ensureRequirements(target.request)];
    return paymentRequiredResponse({
      x402Version: X402_VERSION,
      error: "invalid_exact_evm_recipient_mismatch",
      resource: target.resource,
      accepts,
    });
  }
  const settled = await settlePayment({ x402Version: payload.x402Version, paymentPayload: payload, paymentRequirements: payload.accepted });
  const { response } = settled;
  if (response.success && settled.requestId === target.request.id) {
    const body = JSON.stringify(await target.view());
    return new Response(body, {
      status: 200,
      headers: { "content-type": "application/json", "cache-control": "private, no-store", [PAYMENT_RESPONSE]: encodeHeader(response) },
    });
  }
  if (response.errorReason === "duebill_request_already_paid") throw new AppError("conflict", "This request is already paid");
  // Refused: the requirements again (the request's own, as of now) with the reason, and the failed settlement.
  const accepts = [await ensureRequirements(target.request)];
  return paymentRequiredResponse(
    { x402Version: X402_VERSION, error: response.errorReason ?? "settlement_failed", resource: target.resource, accepts },
    response,
  );
}
