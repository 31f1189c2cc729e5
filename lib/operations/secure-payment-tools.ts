import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import { multicallBodySchema, multicallCreatedSchema, multicallViewSchema } from "@/lib/operations/multicall-schemas";
import { payLinkOp } from "@/lib/operations/secure-payments";
import { batchPayoutsBodySchema, feePlanSchema, feePreviewBodySchema, linkResponseSchema } from "@/lib/operations/secure-payments-schemas";

/** More secure-payment operations of the reference (fees preview, batch payouts, Tron broadcast, bridge step refresh). */
const tags = ["Secure payments"];
/** As link creation: with both x-orchestrator-key and x-client-id, the orchestrator key authenticates. */
const creators = ["orchestratorKey", "clientId", "apiKey"] as const;

export const previewFeesOp = defineOperation({
  method: "POST",
  path: "/v2/secure-payments/fees/preview",
  operationId: "previewSecurePaymentFees",
  summary: "Preview the fee plan of a link",
  description:
    "The fee plan a secure payment of `amount` would get now, from the account's active fee configuration for the flow (the same resolution as POST /v2/secure-payments). No configuration: a plan without fees. Nothing is stored.",
  tags,
  auth: creators,
  body: feePreviewBodySchema,
  responses: { 200: { description: "Fee plan preview", schema: feePlanSchema }, ...errorResponses(400, 401, 403, 429) },
});

export const batchPayoutsOp = defineOperation({
  method: "POST",
  path: "/v2/secure-payments/batch-payouts",
  operationId: "createSecureBatchPayout",
  summary: "Merge pending payout links into one batch link",
  description:
    "The creator's wallet then pays every payout in one transaction. The children's requests move to the new link and the children become `invalidated`; the batch expires with its earliest child. Same network (EVM only), currency and creator wallet; another account's token → 404.",
  tags,
  auth: creators,
  body: batchPayoutsBodySchema,
  idempotent: true,
  responses: { 201: { description: "Batch link", schema: linkResponseSchema }, ...errorResponses(400, 401, 403, 404, 429) },
});
export const multicallPayoutsOp = defineOperation({
  method: "POST",
  path: "/v2/secure-payments/multicall-payouts",
  operationId: "createMulticallPayout",
  summary: "A multicall link over pending payout links, paid in one transaction",
  description:
    "The children stay links of their own (payable alone); the parent is completed once every child is, shows `partially_settled` " +
    "in between, and expires with its earliest child. Same EVM network, currency and creator wallet; at most 150 children. Every " +
    "child that cannot join answers 400 `multicall_validation_failed` with `failures[{securePaymentToken, reason, messageKey, " +
    "context, recoveryAction}]` (another account's link reads as not_found/not_owned without its details; more than 150: `cap`); " +
    "`errors[]` names `childTokens.N`. evm_cross_chain and tron_batch are refused (400 naming requestedExecutionKind).",
  tags,
  // The reference also documents a bearer session (the dashboard's own payouts).
  auth: [...creators, "session"],
  body: multicallBodySchema,
  idempotent: true,
  responses: { 201: { description: "Multicall link", schema: multicallCreatedSchema }, ...errorResponses(400, 401, 403, 429) },
});

export const getMulticallPayoutOp = defineOperation({
  method: "GET",
  path: "/v2/secure-payments/multicall-payouts/{token}",
  operationId: "getMulticallPayout",
  summary: "A multicall link's children, their state and totals (owner only)",
  description: "The same view as GET /v2/secure-payments/{token} for a multicall parent, for its account; another account's → 404.",
  tags,
  auth: [...creators, "session"],
  params: z.object({ token: z.string().max(64) }),
  responses: { 200: { description: "Multicall link", schema: multicallViewSchema }, ...errorResponses(401, 403, 404, 429) },
});

const hexString = z.string().regex(/^[a-fA-F0-9]+$/, "must be hex");
export const tronBroadcastOp = defineOperation({
  method: "POST",
  path: "/v2/secure-payments/{token}/tron/broadcast",
  operationId: "securePaymentTronBroadcast",
  summary: "Relay the payer's signed Tron transaction",
  description:
    "For a pending Tron link: relays a signed TronWeb transaction (its approval of the link's token, or its payment through the Tron ERC20FeeProxy) to the configured Tron node API (`/wallet/broadcasttransaction`) and answers the node's `{result, txid, code, message}`; an accepted payment shows the link as processing. 503 when the server has no Tron node API configured (`TRON_API_URL`, `TRON_API_KEY`) or the node cannot be reached.",
  tags,
  auth: [],
  params: z.object({ token: z.string().max(64) }),
  body: z.strictObject({
    signedTransaction: z.looseObject({
      raw_data_hex: hexString.max(20_000),
      signature: z.array(hexString.max(200)).min(1).max(10),
      txID: z
        .string()
        .regex(/^[a-fA-F0-9]{64}$/, "must be 64 hex digits")
        .optional(),
      raw_data: z.looseObject({ contract: z.array(z.unknown()).min(1).max(10), fee_limit: z.number().int().min(0).optional() }),
    }),
  }),
  responses: {
    200: {
      description: "The node's answer (`result: true` = accepted into its pool, not yet confirmed)",
      schema: z.object({ result: z.boolean(), txid: z.string(), code: z.string(), message: z.string() }),
    },
    ...errorResponses(400, 404, 409, 429, 503),
  },
});

export const refreshStepOp = defineOperation({
  method: "POST",
  path: "/v2/secure-payments/{token}/refresh-step-transaction",
  operationId: "securePaymentRefreshStep",
  summary: "Re-stamp a bridge step's transaction just before sending it",
  description:
    "The reference's LI.FI flow: `step` is the route step the payer chose; the answer is a fresh `transactionRequest` (the bridge's deadline re-stamped). With `ROUTING_PROVIDER=lifi` it calls LI.FI's `/v1/advanced/stepTransaction`; with the devnet bridge or no provider there is no step to refresh (400 saying to call `GET /{token}/pay` with chain and token again). 409 when the link can no longer be paid.",
  tags,
  auth: [],
  params: z.object({ token: z.string().max(64) }),
  body: z.strictObject({
    step: z.looseObject({
      id: z.string().min(1).max(200),
      type: z.string().min(1).max(40),
      tool: z.string().min(1).max(100),
      action: z.looseObject({
        toChainId: z.number().int().positive(),
        toAddress: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address"),
      }),
    }),
  }),
  responses: {
    200: {
      description: "A fresh transaction for the step",
      schema: z.object({
        transactionRequest: z.object({ to: z.string(), data: z.string(), value: z.string(), chainId: z.number().int() }),
      }),
    },
    ...errorResponses(400, 404, 409, 429, 503),
  },
});

/**
 * The reference's newer pay-plan call (its 2026-Q1 release notes; documented in prose only, so the
 * body follows GET /{token}/pay's query, field for field): the same answer as GET /{token}/pay for
 * the same inputs, sent as a JSON body. `isSafe` also takes a boolean.
 */
export const securePaymentCalldataOp = defineOperation({
  method: "POST",
  path: "/v2/secure-payments/{token}/calldata",
  operationId: "securePaymentCalldata",
  summary: "Transactions that pay a link from `wallet` (POST form of GET /{token}/pay)",
  description:
    "The reference's pay-plan operation: the body carries GET /v2/secure-payments/{token}/pay's query (`wallet`, and `chain` + `token` " +
    "for a cross-chain route, `quoteId`, `eoaWallet`, `isSafe`) and the answer is exactly that operation's, errors included. " +
    "Nothing is recorded: calling it twice gives the same plan while the link and the chain stay as they are.",
  tags,
  auth: [],
  params: z.object({ token: z.string().max(64) }),
  body: z.strictObject({
    ...payLinkOp.query!.shape,
    isSafe: z
      .union([z.boolean(), z.enum(["true", "false"])])
      .optional()
      .transform((v) => (v === undefined ? undefined : v === true || v === "true" ? ("true" as const) : ("false" as const)))
      .meta({ description: 'The reference\'s Safe multisig flow, as GET /{token}/pay\'s `isSafe` (a boolean or "true"/"false")' }),
  }),
  responses: { ...payLinkOp.responses },
});

export const setPayerEmailOp = defineOperation({
  method: "POST",
  path: "/v2/secure-payments/{token}/payer-email",
  operationId: "setSecurePaymentPayerEmail",
  summary: "Give an email for the receipt",
  description:
    "Duebill extension. The hosted page of a link created with `collectPayerEmail: true` asks the payer for an email and saves it " +
    "here, before paying; once the payment is confirmed the receipt (its PDF attached) is sent to it, when this deployment has SMTP " +
    "configured. Another email replaces it; an empty string removes it. The address is never shown on the public views. " +
    "409 when the link does not ask for an email or can no longer be paid.",
  tags,
  auth: [],
  params: z.object({ token: z.string().max(64) }),
  body: z.strictObject({
    email: z.union([z.literal(""), z.email("must be an email address").max(254)]).meta({ example: "payer@example.com" }),
  }),
  responses: {
    200: { description: "Saved", schema: z.object({ saved: z.boolean().meta({ description: "false when the email was removed" }) }) },
    ...errorResponses(400, 404, 409, 429),
  },
});
