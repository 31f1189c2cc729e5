import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import {
  createRefundBodySchema,
  getRefundQuerySchema,
  getRefundResponseSchema,
  markRefundSentBodySchema,
  preparedRefundSchema,
  refundListSchema,
  refundParamsSchema,
  refundSchema,
} from "@/lib/operations/refunds-schemas";
import { requestIdParamsSchema } from "@/lib/operations/requests-schemas";

/**
 * Refunds of incoming requests (issue 28), a Duebill extension: the reference has no refund
 * operation. A refund moves money from the payee's wallet, so these are server calls: a browser
 * client ID (public, in a shop's pages) gets 403.
 */
const auth = ["apiKey", "clientId"] as const;
const tags = ["Refunds"];

export const createRefundOp = defineOperation({
  method: "POST",
  path: "/v2/request/{requestId}/refunds",
  operationId: "createRefund",
  summary: "Prepare a refund",
  description:
    "Prepares a refund of a paid or partly paid request (full, or partial: several refunds up to what the payee received) and returns the transactions the payee's wallet sends: approvals when its allowance is short, then the network's ERC20FeeProxy transferFromWithReferenceAndFee(token, to, amount, refundReference, 0, 0x0). The refund reference is the request's payment reference computed with the refund address, so detection records the refund like a payment and sends `payment.refunded`. The fee of the original payment is not refunded (`metadata.feeKept`). 400 naming `amount` above what can still be refunded; 409 for a payout or a request with nothing paid.",
  tags,
  auth,
  browser: false,
  params: requestIdParamsSchema,
  body: createRefundBodySchema,
  bodyOptional: true,
  idempotent: true,
  responses: {
    201: { description: "Refund prepared, with its transactions", schema: preparedRefundSchema },
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
});

export const listRefundsOp = defineOperation({
  method: "GET",
  path: "/v2/request/{requestId}/refunds",
  operationId: "listRefunds",
  summary: "A request's refunds",
  description: "Every refund of the request, oldest first, with the refund totals GET /v2/request/{requestId} shows.",
  tags,
  auth,
  browser: false,
  params: requestIdParamsSchema,
  responses: { 200: { description: "Refunds", schema: refundListSchema }, ...errorResponses(401, 403, 404, 429) },
});

export const getRefundOp = defineOperation({
  method: "GET",
  path: "/v2/request/{requestId}/refunds/{refundId}",
  operationId: "getRefund",
  summary: "A refund, with its transactions while prepared",
  description:
    "The refund, and — while it is prepared (one you prepared, or one Duebill offered for an overpayment) — the transactions that send it from `wallet` (default: the payee).",
  tags,
  auth,
  browser: false,
  params: refundParamsSchema,
  query: getRefundQuerySchema,
  responses: { 200: { description: "Refund", schema: getRefundResponseSchema }, ...errorResponses(400, 401, 403, 404, 429) },
});

export const markRefundSentOp = defineOperation({
  method: "POST",
  path: "/v2/request/{requestId}/refunds/{refundId}/sent",
  operationId: "markRefundSent",
  summary: "Report a refund's transaction",
  description:
    "The wallet sent the refund: status `sent` with its transaction hash (the same hash again changes nothing; a new hash replaces it, as after a wallet's speed-up). Detection confirms the refund from the chain either way.",
  tags,
  auth,
  browser: false,
  params: refundParamsSchema,
  body: markRefundSentBodySchema,
  responses: { 200: { description: "Refund", schema: refundSchema }, ...errorResponses(400, 401, 403, 404, 409, 429) },
});

export const cancelRefundOp = defineOperation({
  method: "POST",
  path: "/v2/request/{requestId}/refunds/{refundId}/cancel",
  operationId: "cancelRefund",
  summary: "Cancel a refund",
  description:
    "Withdraws a prepared refund (or a sent one whose transaction failed or was dropped): its amount can be refunded again. If its transaction lands after all, detection still records it. A confirmed refund cannot be cancelled (409).",
  tags,
  auth,
  browser: false,
  params: refundParamsSchema,
  responses: { 200: { description: "Refund", schema: refundSchema }, ...errorResponses(401, 403, 404, 409, 429) },
});
