import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";

/**
 * Reference operations Duebill answers with a clear refusal instead of a bare 404, so a client
 * written against the reference learns why (docs/api/compatibility.md): the payment-intent signing
 * flow the reference removed in March 2026, and the `/v2/payer` compliance flow of a third-party
 * crypto-to-fiat off-ramp, which a non-custodial payment-request service does not run (404 with the
 * reason: a 4xx, so clients do not retry).
 */
const tags = ["Retired and out of scope"];

export const PAYMENT_INTENTS_REMOVED =
  "Payment intents were removed in March 2026: cross-chain payments return executable calldata. Call GET /v2/request/{requestId}/pay with chain and token, and send its transactions.";
export const PAYER_OUT_OF_SCOPE =
  "The /v2/payer compliance and payment-details flow belongs to a third-party crypto-to-fiat off-ramp; Duebill is non-custodial and does not offer off-ramping.";

export const paymentIntentRemovedOp = defineOperation({
  method: "POST",
  path: "/v2/request/payment-intents/{paymentIntentId}",
  operationId: "sendPaymentIntentRemoved",
  summary: "Removed: payment intents (410)",
  description: PAYMENT_INTENTS_REMOVED,
  tags,
  auth: [],
  params: z.object({ paymentIntentId: z.string().max(200) }),
  responses: { ...errorResponses(410, 429) },
});

/** The /v2/payer operations: each answers 404 with PAYER_OUT_OF_SCOPE. */
function payerOp<M extends "GET" | "POST" | "PATCH">(method: M, path: string, operationId: string, summary: string) {
  return defineOperation({
    method,
    path,
    operationId,
    summary: `Out of scope: ${summary} (404)`,
    description: PAYER_OUT_OF_SCOPE,
    tags,
    auth: [],
    ...(path.includes("{clientUserId}") ? { params: z.object({ clientUserId: z.string().max(200) }) } : {}),
    responses: { ...errorResponses(404, 429) },
  });
}

export const createPayerOp = payerOp("POST", "/v2/payer", "createPayerOutOfScope", "payer compliance");
export const getPayerOp = payerOp("GET", "/v2/payer/{clientUserId}", "getPayerOutOfScope", "payer compliance status");
export const updatePayerOp = payerOp("PATCH", "/v2/payer/{clientUserId}", "updatePayerOutOfScope", "payer agreement status");
export const createPayerPaymentDetailsOp = payerOp(
  "POST",
  "/v2/payer/{clientUserId}/payment-details",
  "createPayerPaymentDetailsOutOfScope",
  "off-ramp payment details",
);
export const getPayerPaymentDetailsOp = payerOp(
  "GET",
  "/v2/payer/{clientUserId}/payment-details",
  "getPayerPaymentDetailsOutOfScope",
  "off-ramp payment details",
);
