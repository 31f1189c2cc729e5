import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { errorBodySchema, errorResponses } from "@/lib/openapi/common";
import { linkDepositSchema } from "@/lib/operations/checkout-schemas";
import { securePaymentSchema } from "@/lib/operations/secure-payment-object-schema";
import { publicLinkSchema, tokenPayResponseSchema } from "@/lib/operations/secure-payment-view-schemas";
import { createPayoutLinkBodySchema, createSecurePaymentBodySchema, linkResponseSchema } from "@/lib/operations/secure-payments-schemas";

const tags = ["Secure payments"];
/** With both x-orchestrator-key and x-client-id, the orchestrator key authenticates and x-client-id names its linked client. */
const creators = ["orchestratorKey", "clientId", "apiKey"] as const;

/** The reference's 423 while a Safe transaction for the link awaits its owners (lib/secure-payments/safe.ts). */
const safePaymentInProgress = {
  423: {
    description:
      "Secure payment is in progress: a Safe transaction for the link (POST /{token}/intent with safeTxHash) awaits its owners, " +
      "until it is executed and detected or its safePaymentDeadline passes",
    schema: errorBodySchema
      .extend({
        code: z.literal("payment_in_progress"),
        status: z.literal("pending"),
        branding: z.record(z.string(), z.unknown()).nullable(),
        requestStatuses: z.array(
          z.object({
            requestId: z.string(),
            hasBeenPaid: z.boolean(),
            safeTxHash: z.string(),
            chainId: z.number().int(),
            safePaymentDeadline: z.number().int().meta({ description: "Unix seconds" }),
          }),
        ),
      })
      .meta({ id: "SafePaymentInProgress" }),
  },
};

export const createSecurePaymentOp = defineOperation({
  method: "POST",
  path: "/v2/secure-payments",
  operationId: "createSecurePayment",
  summary: "Create a hosted payment link (incoming; batch on EVM only)",
  description:
    "Pays the client ID's bound destination, else `destinationId`, else the account's active destination. A `destinationId` other than the bound one → 403. A multi-request Tron link → 400. Links expire after 7 days.",
  tags,
  // The reference also accepts a session (cookie or Bearer): the dashboard's own links are made so.
  auth: [...creators, "session"],
  body: createSecurePaymentBodySchema,
  idempotent: true,
  responses: { 201: { description: "Link", schema: linkResponseSchema }, ...errorResponses(400, 401, 403, 404, 429) },
});

export const createPayoutLinkOp = defineOperation({
  method: "POST",
  path: "/v2/secure-payments/payouts",
  operationId: "createSecurePayout",
  summary: "Create a hosted payout link (outgoing)",
  description: "The recipient is screened at creation; a rejection creates the link as compliance_failed.",
  tags,
  auth: creators,
  body: createPayoutLinkBodySchema,
  idempotent: true,
  responses: { 201: { description: "Link", schema: linkResponseSchema }, ...errorResponses(400, 401, 403, 429) },
});

export const getSecurePaymentOp = defineOperation({
  method: "GET",
  path: "/v2/secure-payments",
  operationId: "getSecurePayment",
  summary: "The secure payment of a request",
  tags,
  auth: ["session"],
  query: z.object({ requestId: z.string().min(1).max(100) }),
  responses: { 200: { description: "Secure payment", schema: securePaymentSchema }, ...errorResponses(400, 401, 404, 429) },
});

export const getPaymentPageOp = defineOperation({
  method: "GET",
  path: "/v2/secure-payments/{token}",
  operationId: "getSecurePaymentPage",
  summary: "Public view of a link (the hosted page polls it)",
  description:
    "The reference's display data of a link (single and batch variants: requestIds, payee(s), amount(s), payment currency, " +
    "destination(s), fee plan, branding) plus `checkout`, Duebill's view that the hosted page renders. The token is the " +
    "capability: no credentials are needed (the reference's `x-client-id` and `Origin` headers are accepted and not required). " +
    "Answers for every status, so a page can show a paid or expired link — except while a Safe transaction for a pending link " +
    "awaits its owners: 423 with `requestStatuses[]` (the reference's Safe flow; see POST /{token}/intent).",
  tags,
  auth: [],
  params: z.object({ token: z.string().max(64) }),
  query: z.object({
    wallet: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "The payer's wallet: adds paymentOptions (its balance of the link's token against what it must send)" }),
  }),
  responses: { 200: { description: "Link view", schema: publicLinkSchema }, ...errorResponses(400, 404, 429), ...safePaymentInProgress },
});

export const payLinkOp = defineOperation({
  method: "GET",
  path: "/v2/secure-payments/{token}/pay",
  operationId: "paySecurePayment",
  summary: "Transactions that pay a link from `wallet`",
  tags,
  auth: [],
  params: z.object({ token: z.string().max(64) }),
  query: z.object({
    wallet: z.string().min(1).max(100),
    chain: z
      .string()
      .max(32)
      .optional()
      .meta({ description: "Cross-chain source chain (ARBITRUM, BASE, ETHEREUM, OPTIMISM, POLYGON), with token" }),
    token: z
      .string()
      .max(16)
      .optional()
      .meta({ description: "Cross-chain source token (USDC, USDT, or USDT0 where the source chain has it), with chain" }),
    quoteId: z
      .string()
      .max(64)
      .optional()
      .meta({ description: "Cross-chain: an earlier answer's metadata.quoteId, served again until it expires" }),
    eoaWallet: z
      .string()
      .max(100)
      .optional()
      .meta({ description: "The reference's smart-account flow: not supported (400 unless it is `wallet` itself)" }),
    isSafe: z
      .enum(["true", "false"])
      .optional()
      .meta({
        description:
          "`true`: `wallet` is a Safe multisig (EVM links only; not with eoaWallet, chain or token). The same transactions, read for " +
          "the Safe (no gas check: its executor pays the gas), each with `operation: 0`; `metadata.multiSendData` runs them as one " +
          "Safe transaction (DELEGATECALL into the chain's MultiSendCallOnly); `metadata.safePaymentDeadline` is the link's expiry. " +
          "Record the Safe transaction with POST /{token}/intent {safeTxHash, chain, token}.",
      }),
  }),
  responses: {
    200: {
      description:
        "Calldata (cross-chain when chain and token are given), approvals first: `metadata.paymentTransactionIndex` is the payment, " +
        "`approvalTransactionsCount` the approvals before it. A batch link also answers `ERC20ApprovalTransactions` and " +
        "`batchPaymentTransaction` (the same transactions, split).",
      schema: tokenPayResponseSchema,
    },
    ...errorResponses(400, 403, 404, 409, 429),
    ...safePaymentInProgress,
  },
});

export const linkDepositOp = defineOperation({
  method: "POST",
  path: "/v2/secure-payments/{token}/deposit-address",
  operationId: "securePaymentDepositAddress",
  summary: "A deposit address that pays the link with a plain token transfer (Duebill extension)",
  description:
    "For a payer without a browser wallet: the request's own deposit address (Request Network's ERC20SingleRequestProxy, " +
    "created on first call through the network's SingleRequestProxyFactory), the exact amount to send, an EIP-681 URI and its QR " +
    "code as SVG. Any wallet or exchange can pay with a plain `transfer`; Duebill forwards it through the ERC20FeeProxy with the " +
    "request's payment reference, so it is detected and attributed to the sender like any payment. Repeated calls return the same " +
    "address. Single incoming EVM links only; 409 says why otherwise.",
  tags,
  auth: [],
  params: z.object({ token: z.string().max(64) }),
  responses: {
    200: {
      description: "Where and what to send",
      schema: linkDepositSchema,
    },
    ...errorResponses(404, 409, 429, 503),
  },
});

/** An EVM transaction hash (0x + 64 hex) or a Tron txid (64 hex). */
const hash32 = z.string().regex(/^(0x)?[a-fA-F0-9]{64}$/, "must be a transaction hash (64 hex digits)");
/** A Safe transaction hash (EIP-712 SafeTx hash): 0x + 64 hex, as the reference. */
const safeTxHash = z.string().regex(/^0x[a-fA-F0-9]{64}$/, "must be a Safe transaction hash (0x + 64 hex digits)");

export const recordSubmissionOp = defineOperation({
  method: "POST",
  path: "/v2/secure-payments/{token}/intent",
  operationId: "securePaymentIntent",
  summary: "Record the transaction hash the payer's wallet returned",
  description:
    "The hosted page calls it as soon as the wallet returns the payment's hash, so the page, the dashboard and the API show the link " +
    "as processing until detection confirms it. Informational: the hash never settles anything (detection reads the chain). " +
    "Repeating the same hash is a no-op; a new one replaces it. The reference's other fields (`chain`, `token`, `executionKind`, …) " +
    "are accepted and ignored with `txHash`. 409 when the link is no longer pending.\n\n" +
    "Safe payers (the reference's Safe flow, EVM links only): `safeTxHash` records the Safe transaction its owners are signing, " +
    "with `chain` and `token` (the link's, both required), `safePaymentDeadline` (Unix seconds as the reference, or an ISO 8601 " +
    "date-time; in the future and not after the link's expiry, which is the default) and `payerAddress` (the Safe: required when " +
    "the link names its payers). Until the Safe executes it or the deadline passes, GET /{token} and GET /{token}/pay answer 423.",
  tags,
  auth: [],
  params: z.object({ token: z.string().max(64) }),
  body: z.strictObject({
    txHash: hash32.optional(),
    safeTxHash: safeTxHash.optional(),
    payerAddress: z.string().max(100).optional(),
    // The reference's route metadata: accepted, not used.
    chain: z.string().max(20).optional(),
    token: z.string().max(20).optional(),
    executionKind: z.string().max(40).optional(),
    safePaymentDeadline: z
      .union([z.number().int().positive(), z.iso.datetime({ offset: true })])
      .optional()
      .meta({ description: "With safeTxHash: until when the link waits for the Safe (Unix seconds, or ISO 8601)" }),
    payerEoaAddress: z.string().max(100).optional(),
    sourceNetwork: z.string().max(40).optional(),
    sourceToken: z.string().max(100).optional(),
    sourceAmount: z.string().max(80).optional(),
    routeKind: z.string().max(40).optional(),
    bridgeTool: z.string().max(40).nullable().optional(),
  }),
  responses: {
    200: {
      description: "Recorded",
      schema: z.object({
        intentId: z.string(),
        paymentReference: z.string(),
        txHash: z.string().optional(),
        safeTxHash: z.string().optional(),
        safePaymentDeadline: z.number().int().optional().meta({ description: "With safeTxHash: the recorded deadline (Unix seconds)" }),
        isListening: z.boolean(),
        payerAddress: z.string().optional(),
      }),
    },
    ...errorResponses(400, 404, 409, 429),
  },
});
