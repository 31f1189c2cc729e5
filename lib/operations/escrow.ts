import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import {
  authorizeBodySchema,
  authorizeCalldataBodySchema,
  authorizeCalldataResponseSchema,
  captureBodySchema,
  commerceCalldataResponseSchema,
  commercePaymentSchema,
  refundBodySchema,
  refundSignedBodySchema,
} from "@/lib/operations/escrow-schemas";
import { requestIdParamsSchema } from "@/lib/operations/requests-schemas";

/**
 * Commerce payments (issue 31; the reference's preview on the same paths, plus refunds): the payer
 * authorizes, an operator captures, voids and refunds through Duebill's own escrow contract
 * (docs/guides/escrow.md). Server calls: they move or release money, so a browser client ID gets 403.
 */
const auth = ["apiKey", "clientId"] as const;
const tags = ["Commerce payments"];
const base = "/v2/commerce-payments";
const status = (description: string) => ({ 200: { description, schema: commercePaymentSchema } });
const txs = (description: string) => ({ 200: { description, schema: commerceCalldataResponseSchema } });

export const authorizeCommerceCalldataOp = defineOperation({
  method: "POST",
  path: `${base}/authorize/calldata`,
  operationId: "authorizeCommercePaymentCalldata",
  summary: "Prepare an authorization",
  description:
    "Binds the request to an escrowed payment (payer, operator, amount plus fee, deadlines, reference) and returns what the payer signs (EIP-3009 typed data, no gas) or sends (approve + authorizeWithAllowance, for tokens without EIP-3009 such as USDT). 400 naming the field; 409 when the request is already authorized.",
  tags,
  auth,
  browser: false,
  body: authorizeCalldataBodySchema,
  responses: { 201: { description: "Prepared", schema: authorizeCalldataResponseSchema }, ...errorResponses(400, 401, 403, 404, 409, 429) },
});

export const authorizeCommerceOp = defineOperation({
  method: "POST",
  path: `${base}/{requestId}/authorize`,
  operationId: "authorizeCommercePayment",
  summary: "Submit the payer's authorization",
  description:
    "Duebill's relayer submits the payer's signature (authorizeWithSignature): the amount moves from the payer into the escrow, `payment.authorized` is sent. Once per payment; again answers the current state.",
  tags,
  auth,
  browser: false,
  params: requestIdParamsSchema,
  body: authorizeBodySchema,
  responses: { ...status("Authorized"), ...errorResponses(400, 401, 403, 404, 429) },
});

export const captureCommerceOp = defineOperation({
  method: "POST",
  path: `${base}/{requestId}/capture`,
  operationId: "captureCommercePayment",
  summary: "Capture (relayed)",
  description:
    "Duebill's relayer (the payment's operator) captures `amount` before the capture deadline: it goes to the payee through the ERC20FeeProxy with the request's payment reference (and its fee share), so detection records the payment. 400 naming `amount` above what is capturable, `authorizationExpiry` after the deadline, `operatorWalletAddress` when another wallet operates.",
  tags,
  auth,
  browser: false,
  params: requestIdParamsSchema,
  body: captureBodySchema,
  bodyOptional: true,
  responses: { ...status("Captured"), ...errorResponses(400, 401, 403, 404, 429) },
});

export const captureCommerceCalldataOp = defineOperation({
  method: "POST",
  path: `${base}/{requestId}/capture/calldata`,
  operationId: "captureCommercePaymentCalldata",
  summary: "Capture transaction (your operator wallet)",
  description: "The capture transaction for the operator wallet to sign and send (non-custodial). Same checks as the relayed capture.",
  tags,
  auth,
  browser: false,
  params: requestIdParamsSchema,
  body: captureBodySchema,
  bodyOptional: true,
  responses: { ...txs("The transaction"), ...errorResponses(400, 401, 403, 404, 429) },
});

export const voidCommerceOp = defineOperation({
  method: "POST",
  path: `${base}/{requestId}/void`,
  operationId: "voidCommercePayment",
  summary: "Void (relayed)",
  description: "Duebill's relayer returns everything still in the escrow to the payer (`payment.voided`). Works after the deadline too.",
  tags,
  auth,
  browser: false,
  params: requestIdParamsSchema,
  responses: { ...status("Voided"), ...errorResponses(400, 401, 403, 404, 429) },
});

export const voidCommerceCalldataOp = defineOperation({
  method: "POST",
  path: `${base}/{requestId}/void/calldata`,
  operationId: "voidCommercePaymentCalldata",
  summary: "Void transaction (your operator wallet)",
  description: "The void transaction for the operator wallet to sign and send.",
  tags,
  auth,
  browser: false,
  params: requestIdParamsSchema,
  responses: { ...txs("The transaction"), ...errorResponses(400, 401, 403, 404, 429) },
});

export const refundCommerceCalldataOp = defineOperation({
  method: "POST",
  path: `${base}/{requestId}/refund/calldata`,
  operationId: "refundCommercePaymentCalldata",
  summary: "Refund transactions (a Duebill extension)",
  description:
    "Refunds up to what was captured, from the payee's (or operator's) wallet back to the payer through the escrow: an approval when the allowance is short, then refund. `payment.capture_refunded` follows. 400 naming `amount` above captured minus refunded.",
  tags,
  auth,
  browser: false,
  params: requestIdParamsSchema,
  body: refundBodySchema,
  responses: { ...txs("The transactions"), ...errorResponses(400, 401, 403, 404, 429) },
});

export const refundCommerceOp = defineOperation({
  method: "POST",
  path: `${base}/{requestId}/refund`,
  operationId: "refundCommercePayment",
  summary: "Refund, gasless (a Duebill extension)",
  description:
    "Duebill's relayer submits the payee's signed refund (the typedData of POST …/refund/calldata): the amount moves from the payee through the escrow to the payer, `payment.capture_refunded` follows. 400 naming `amount` above captured minus refunded, or `signature` when the chain refuses it.",
  tags,
  auth,
  browser: false,
  params: requestIdParamsSchema,
  body: refundSignedBodySchema,
  responses: { ...status("Refunded"), ...errorResponses(400, 401, 403, 404, 429) },
});

export const commerceStatusOp = defineOperation({
  method: "GET",
  path: `${base}/{requestId}/status`,
  operationId: "getCommercePaymentStatus",
  summary: "Status, amounts and deadlines",
  description:
    "The payment read back from the chain: authorized, captured, capturable, voided, reclaimed, reclaimable and refunded amounts, and the deadlines.",
  tags,
  auth,
  browser: false,
  params: requestIdParamsSchema,
  responses: { ...status("The payment"), ...errorResponses(401, 403, 404, 429) },
});
