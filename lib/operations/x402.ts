import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import { publicLinkSchema } from "@/lib/operations/secure-payment-view-schemas";
import {
  facilitatorRequestSchema,
  paymentRequiredSchema,
  requestResourceSchema,
  settleResponseSchema,
  supportedResponseSchema,
  verifyResponseSchema,
} from "@/lib/operations/x402-schemas";

const tags = ["x402"];

const paymentRequired = {
  402: {
    description:
      "Payment required: the x402 v2 PaymentRequired, in the `PAYMENT-REQUIRED` header (base64 JSON) and as the body. After a " +
      "refused payment, `error` names the reason and `PAYMENT-RESPONSE` carries the failed settlement",
    schema: paymentRequiredSchema,
  },
};

const resourceDescription = (what: string) =>
  `x402 (HTTP 402) payment of ${what}. Without a payment: 402 with \`accepts[]\` (scheme \`exact\`, EIP-3009 ` +
  "transferWithAuthorization of the request's token, its full due amount with the fee, payTo = the request's deposit address). " +
  "With `PAYMENT-SIGNATURE` (base64 of the x402 v2 PaymentPayload): Duebill's relayer settles it once and answers 200 with the " +
  "resource and `PAYMENT-RESPONSE` (the settlement); the same header again returns the same settlement. The deposit address " +
  "forwards the payment with the request's reference and fee, and detection records it like any payment. 409 names why x402 " +
  "cannot pay (a token without EIP-3009 such as USDT, Tron, no signature relayer, already paid, a settlement in progress).";

export const x402RequestOp = defineOperation({
  method: "GET",
  path: "/v2/x402/requests/{requestId}",
  operationId: "x402PayRequest",
  summary: "Pay a request over x402 (Duebill extension)",
  description: `${resourceDescription("a request")} The resource is the request's payment status.`,
  tags,
  auth: [],
  params: z.object({ requestId: z.string().max(80) }),
  responses: {
    200: { description: "Paid: the request's payment status, with PAYMENT-RESPONSE", schema: requestResourceSchema },
    ...paymentRequired,
    ...errorResponses(400, 404, 409, 429, 503),
  },
});

export const x402LinkOp = defineOperation({
  method: "GET",
  path: "/v2/x402/secure-payments/{token}",
  operationId: "x402PaySecurePayment",
  summary: "Pay a secure payment link over x402 (Duebill extension)",
  description: `${resourceDescription("a single incoming link")} The resource is the link's public view (as GET /v2/secure-payments/{token}).`,
  tags,
  auth: [],
  params: z.object({ token: z.string().max(64) }),
  responses: {
    200: { description: "Paid: the link's view, with PAYMENT-RESPONSE", schema: publicLinkSchema },
    ...paymentRequired,
    ...errorResponses(400, 404, 409, 429, 503),
  },
});

const facilitatorNote =
  "Public, as the x402 spec's facilitators may be: it settles only payments to Duebill requests (payTo a request's deposit " +
  "address, the request's full due amount), so Duebill's relayer pays gas only for payments Duebill records. Well-formed " +
  "requests answer 200 with the spec's body; a refusal is in the body (`invalidReason` / `errorReason`).";

export const x402VerifyOp = defineOperation({
  method: "POST",
  path: "/v2/x402/facilitator/verify",
  operationId: "x402Verify",
  summary: "x402 facilitator: verify a payment",
  description:
    "Checks an `exact` EIP-3009 payment without settling it: the signature (recovered, compared to `from`), amount, asset, " +
    `network, payTo, the time window, the authorization's state on chain and the payer's balance. ${facilitatorNote}`,
  tags,
  auth: [],
  body: facilitatorRequestSchema,
  responses: { 200: { description: "The verification", schema: verifyResponseSchema }, ...errorResponses(400, 429, 503) },
});

export const x402SettleOp = defineOperation({
  method: "POST",
  path: "/v2/x402/facilitator/settle",
  operationId: "x402Settle",
  summary: "x402 facilitator: settle a payment",
  description:
    "Verifies, then submits the authorization through Duebill's signature relayer, once per authorization (chain, token, " +
    "`from`, nonce): concurrent and repeated settles of one authorization make one transfer and get the same answer. " +
    facilitatorNote,
  tags,
  auth: [],
  body: facilitatorRequestSchema,
  responses: { 200: { description: "The settlement", schema: settleResponseSchema }, ...errorResponses(400, 429, 503) },
});

export const x402SupportedOp = defineOperation({
  method: "GET",
  path: "/v2/x402/facilitator/supported",
  operationId: "x402Supported",
  summary: "x402 facilitator: supported kinds",
  description:
    "The (version, scheme, network) kinds this server settles: `exact` on the EVM networks where it can now, and its relayer as signer.",
  tags,
  auth: [],
  responses: { 200: { description: "Supported kinds", schema: supportedResponseSchema }, ...errorResponses(429) },
});
