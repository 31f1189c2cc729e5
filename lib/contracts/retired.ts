import { z } from "zod";
import { errorResponses } from "@/lib/http/openapi/common";
import { defineOperation } from "@/lib/http/operation";

/**
 * Reference operations Duebill answers with a clear refusal instead of a bare 404, so a client
 * written against the reference learns why (README "Compatibility"): the payment-intent signing
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

const payerResponses = { ...errorResponses(404, 429) };

export const createPayerOp = defineOperation({
  method: "POST",
  path: "/v2/payer",
  operationId: "createPayerOutOfScope",
  summary: "Out of scope: payer compliance (404)",
  description: PAYER_OUT_OF_SCOPE,
  tags,
  auth: [],
  responses: payerResponses,
});

export const getPayerOp = defineOperation({
  method: "GET",
  path: "/v2/payer/{clientUserId}",
  operationId: "getPayerOutOfScope",
  summary: "Out of scope: payer compliance status (404)",
  description: PAYER_OUT_OF_SCOPE,
  tags,
  auth: [],
  params: z.object({ clientUserId: z.string().max(200) }),
  responses: payerResponses,
});

export const updatePayerOp = defineOperation({
  method: "PATCH",
  path: "/v2/payer/{clientUserId}",
  operationId: "updatePayerOutOfScope",
  summary: "Out of scope: payer agreement status (404)",
  description: PAYER_OUT_OF_SCOPE,
  tags,
  auth: [],
  params: z.object({ clientUserId: z.string().max(200) }),
  responses: payerResponses,
});

export const createPayerPaymentDetailsOp = defineOperation({
  method: "POST",
  path: "/v2/payer/{clientUserId}/payment-details",
  operationId: "createPayerPaymentDetailsOutOfScope",
  summary: "Out of scope: off-ramp payment details (404)",
  description: PAYER_OUT_OF_SCOPE,
  tags,
  auth: [],
  params: z.object({ clientUserId: z.string().max(200) }),
  responses: payerResponses,
});

export const getPayerPaymentDetailsOp = defineOperation({
  method: "GET",
  path: "/v2/payer/{clientUserId}/payment-details",
  operationId: "getPayerPaymentDetailsOutOfScope",
  summary: "Out of scope: off-ramp payment details (404)",
  description: PAYER_OUT_OF_SCOPE,
  tags,
  auth: [],
  params: z.object({ clientUserId: z.string().max(200) }),
  responses: payerResponses,
});
