import { BRANDING_EXAMPLES } from "@/lib/openapi/branding-examples";
import { DOCUMENT_EXAMPLES } from "@/lib/openapi/document-examples";
import { DUNNING_EXAMPLES } from "@/lib/openapi/dunning-examples";
import type { ExampleContext, OperationExample } from "@/lib/openapi/example-context";
import { recurrenceOf, requestRecurrenceOf } from "@/lib/openapi/example-context";
import { RECEIPT_EXAMPLES } from "@/lib/openapi/receipt-examples";
import { REFUND_EXAMPLES } from "@/lib/openapi/refund-examples";
import { SIGNATURE_PAYMENT_EXAMPLES } from "@/lib/openapi/signature-payment-examples";
import { SUBSCRIPTION_EXAMPLES } from "@/lib/openapi/subscription-examples";

export {
  type ExampleContext,
  exampleContext,
  type OperationExample,
  recurrenceOf,
  requestRecurrenceOf,
} from "@/lib/openapi/example-context";

/**
 * The example request of each operation on /docs where the one generated from its schema would
 * not run; the rules are in lib/openapi/example-context.ts. Placeholders say where each value comes from.
 */
const from = (what: string) => `the \`${what}\``;
const REQUEST_ID = { "<requestId>": `${from("requestId")} of [Create a payment request](#createRequest)` };
const TOKEN = { "<token>": `${from("token")} of [Create a secure payment link](#createSecurePayment)` };
const DESTINATION_ID = {
  "<destinationId>": `${from("destinationId")} your destination has (the \`destinationId\` of [GET /v2/payee-destination](#getPayeeDestination))`,
};
const SIGNED = (action: "add" | "deactivate") => ({
  "<nonce>": `${from("nonce")} of [the signing data](#getPayeeDestinationSigningData) (action \`${action}\`)`,
  "<signature>":
    "the wallet's EIP-712 signature of that signing data (`eth_signTypedData_v4` of its `domain`, `types`, `primaryType` and `message`)",
});
const CLIENT_ID_ID = { "<id>": `${from("id")} of [Create a client ID](#createClientId)` };
const WEBHOOK_ID = { "<id>": `${from("id")} of [Register a webhook](#createWebhook)` };

type Builder = (ctx: ExampleContext) => OperationExample;

const request: Builder = (ctx) => ({
  body: {
    amount: "12.50",
    invoiceCurrency: "USD",
    paymentCurrency: ctx.currency,
    payee: ctx.payee,
    payer: ctx.payer,
    reference: "INV-1001",
    customerInfo: { firstName: "Jane", lastName: "Doe", email: "jane@example.com", address: { city: "Lisbon", country: "PT" } },
  },
});

const RECURRING_ID = (ctx: ExampleContext) => ({
  "<id>": `${from("id")} of [Create a payout](#createPayout) sent with \`"recurrence": ${JSON.stringify(recurrenceOf(ctx)).replaceAll(",", ", ")}\``,
});
const RECURRING_REQUEST = (ctx: ExampleContext) => `\`"recurrence": ${JSON.stringify(requestRecurrenceOf(ctx)).replaceAll(",", ", ")}\``;
const CHALLENGE = {
  "<challengeId>": `${from("challengeId")} of [Get a sign-in message](#createWalletChallenge)`,
  "<nonce>": `its \`nonce\``,
  "<message>": "its `message` (JSON-escaped: newlines as `\\n`)",
  "<signature>": "the wallet's `personal_sign` signature of that message",
};
const PLATFORM_CLIENT_ID = {
  "<clientId>": "the platform's client ID (`cli_…`), created in its dashboard or with [Create a client ID](#createClientId)",
};
const ORCHESTRATOR_WEBHOOK_ID = { "<id>": `${from("id")} of [Register an orchestrator webhook](#createOrchestratorWebhook)` };
const FEE_CONFIG_ID = { "<id>": `${from("id")} of [Create a fee configuration](#createOrchestratorFeeConfig)` };
const LINKED_CLIENT_ID = { "<clientId>": `a client ID [linked](#linkClientId) to you` };

const clientIdBody = { label: "Shop frontend", allowedDomains: ["https://shop.example.com"] };
const destinationBody = { nonce: "<nonce>", signature: "<signature>" };

export const OPERATION_EXAMPLES: Record<string, Builder> = {
  createRequest: request,
  getRequest: () => ({ params: { requestId: "<requestId>" }, placeholders: REQUEST_ID }),
  getRequestRoutes: (ctx) => ({ params: { requestId: "<requestId>" }, query: { wallet: ctx.payer }, placeholders: REQUEST_ID }),
  payRequest: () => ({ params: { requestId: "<requestId>" }, placeholders: REQUEST_ID }),
  ...REFUND_EXAMPLES,
  ...SIGNATURE_PAYMENT_EXAMPLES,
  ...SUBSCRIPTION_EXAMPLES,
  ...DOCUMENT_EXAMPLES,
  ...RECEIPT_EXAMPLES,
  ...DUNNING_EXAMPLES,
  listRequests: (ctx) => ({ query: { walletAddress: ctx.payee, limit: "20" } }),
  updateRequestRecurrence: (ctx) => ({
    params: { requestId: "<requestId>" },
    body: { isRecurrenceStopped: true },
    placeholders: {
      "<requestId>": `${from("requestId")} of [Create a payment request](#createRequest) sent with ${RECURRING_REQUEST(ctx)} (or a \`requestId\` of a recurring payout's \`requests\`)`,
    },
  }),
  stopRequestRecurrenceV1: (ctx) => ({
    params: { paymentReference: "<paymentReference>" },
    placeholders: {
      "<paymentReference>": `${from("paymentReference")} of [Create a payment request](#createRequest) sent with ${RECURRING_REQUEST(ctx)}`,
    },
  }),
  createPayout: (ctx) => ({
    body: {
      payee: ctx.payee,
      amount: "25.50",
      invoiceCurrency: "USD",
      paymentCurrency: ctx.currency,
      payerWallet: ctx.payer,
      reference: "PO-1001",
    },
  }),
  createBatchPayout: (ctx) => ({
    body: {
      requests: [
        { payee: ctx.payee, amount: "25.50", invoiceCurrency: "USD", paymentCurrency: ctx.currency },
        { payee: ctx.payer, amount: "10", invoiceCurrency: ctx.currency, paymentCurrency: ctx.currency },
      ],
      payer: ctx.payer,
    },
  }),
  createSecurePayment: () => ({
    auth: "clientId",
    body: {
      requests: [{ amount: "25.50" }],
      reference: "ORDER-1001",
      description: "Design work, January",
      invoice: {
        lines: [
          { description: "Design work (hours)", quantity: "2", unitPrice: "8.50", taxRate: "20" },
          { description: "Stock photo licence", quantity: "1", unitPrice: "5.10" },
        ],
      },
      redirectUrl: "https://shop.example.com/thanks",
      redirectLabel: "Back to the shop",
      collectPayerEmail: true,
    },
  }),
  createSecurePayout: (ctx) => ({
    auth: "clientId",
    body: {
      recipient: ctx.payee,
      creatorWalletAddress: ctx.payer,
      network: ctx.network,
      currency: ctx.currency,
      amount: "25.50",
      reference: "PO-1001",
    },
  }),
  getSecurePayment: () => ({
    query: { requestId: "<requestId>" },
    placeholders: { "<requestId>": `one of the \`requestIds\` of [Create a secure payment link](#createSecurePayment)` },
  }),
  getSecurePaymentPage: () => ({ params: { token: "<token>" }, placeholders: TOKEN }),
  securePaymentDepositAddress: () => ({ params: { token: "<token>" }, placeholders: TOKEN }),
  paySecurePayment: (ctx) => ({ params: { token: "<token>" }, query: { wallet: ctx.payer }, placeholders: TOKEN }),
  securePaymentCalldata: (ctx) => ({ params: { token: "<token>" }, body: { wallet: ctx.payer }, placeholders: TOKEN }),
  setSecurePaymentPayerEmail: () => ({ params: { token: "<token>" }, body: { email: "payer@example.com" }, placeholders: TOKEN }),
  securePaymentIntent: () => ({
    params: { token: "<token>" },
    body: { txHash: "<txHash>" },
    placeholders: { ...TOKEN, "<txHash>": "the hash of the transaction the payer's wallet sent" },
  }),
  previewSecurePaymentFees: (ctx) => ({ auth: "clientId", body: { amount: "100", currency: ctx.currency, flow: "get_paid" } }),
  createSecureBatchPayout: () => ({
    auth: "clientId",
    body: { tokens: ["<token1>", "<token2>"] },
    placeholders: {
      "<token1>": `${from("token")} of a [payout link](#createSecurePayout)`,
      "<token2>": "the token of another payout link (same network, currency and creator wallet)",
    },
  }),
  createMulticallPayout: () => ({
    auth: "clientId",
    body: { childTokens: ["<token1>", "<token2>"] },
    placeholders: {
      "<token1>": `${from("token")} of a [payout link](#createSecurePayout)`,
      "<token2>": "the token of another payout link (same network, currency and creator wallet)",
    },
  }),
  getMulticallPayout: () => ({
    auth: "clientId",
    params: { token: "<token>" },
    placeholders: { "<token>": `${from("token")} of [Create a multicall payout](#createMulticallPayout)` },
  }),
  createPayeeDestination: () => ({ body: destinationBody, placeholders: SIGNED("add") }),
  createPayeeDestinationV1: () => ({ body: destinationBody, placeholders: SIGNED("add") }),
  getPayeeDestinationSigningData: (ctx) => ({
    query: { walletAddress: ctx.payee, action: "add", tokenAddress: ctx.tokenAddress, chainId: String(ctx.chainId) },
  }),
  getPayeeDestinationSigningDataV1: (ctx) => ({
    query: { walletAddress: ctx.payee, action: "add", tokenAddress: ctx.tokenAddress, chainId: String(ctx.chainId) },
  }),
  getPayeeDestination: (ctx) => ({ query: { walletAddress: ctx.payee } }),
  getPayeeDestinationsV1: (ctx) => ({ query: { walletAddress: ctx.payee } }),
  readPayeeDestination: () => ({ params: { destinationId: "<destinationId>" }, placeholders: DESTINATION_ID }),
  getPayeeDestinationV1: () => ({ params: { destinationId: "<destinationId>" }, placeholders: DESTINATION_ID }),
  deactivatePayeeDestination: () => ({
    params: { destinationId: "<destinationId>" },
    body: destinationBody,
    placeholders: { ...DESTINATION_ID, ...SIGNED("deactivate") },
  }),
  deactivatePayeeDestinationV1: () => ({
    params: { destinationId: "<destinationId>" },
    body: destinationBody,
    placeholders: { ...DESTINATION_ID, ...SIGNED("deactivate") },
  }),
  deactivatePayeeDestinationByBodyV1: () => ({
    body: { destinationId: "<destinationId>", ...destinationBody },
    placeholders: { ...DESTINATION_ID, ...SIGNED("deactivate") },
  }),
  createClientId: () => ({ body: clientIdBody }),
  createClientIdV1: () => ({ body: clientIdBody }),
  getClientId: () => ({ params: { id: "<id>" }, placeholders: CLIENT_ID_ID }),
  getClientIdV1: () => ({ params: { id: "<id>" }, placeholders: CLIENT_ID_ID }),
  updateClientId: () => ({ params: { id: "<id>" }, body: clientIdBody, placeholders: CLIENT_ID_ID }),
  updateClientIdV1: () => ({ params: { id: "<id>" }, body: clientIdBody, placeholders: CLIENT_ID_ID }),
  revokeClientId: () => ({ params: { id: "<id>" }, placeholders: CLIENT_ID_ID }),
  revokeClientIdV1: () => ({ params: { id: "<id>" }, placeholders: CLIENT_ID_ID }),
  createWebhook: () => ({ body: { url: "https://shop.example.com/webhooks/duebill" } }),
  updateWebhook: () => ({ params: { id: "<id>" }, body: { active: false }, placeholders: WEBHOOK_ID }),
  deleteWebhook: () => ({ params: { id: "<id>" }, placeholders: WEBHOOK_ID }),
  listWebhookDeliveries: () => ({ params: { id: "<id>" }, placeholders: WEBHOOK_ID }),
  testWebhook: () => ({ body: { eventType: "payment.confirmed" }, requires: ["createWebhook"] }),
  testOrchestratorWebhooks: () => ({ body: { eventType: "client_id.linked" }, requires: ["createOrchestratorWebhook"] }),
  securePaymentTronBroadcast: () => ({
    params: { token: "<token>" },
    body: {
      signedTransaction: {
        txID: "<txID>",
        raw_data_hex: "<raw_data_hex>",
        signature: ["<signature>"],
        raw_data: {
          contract: [{ type: "TriggerSmartContract", parameter: { value: { contract_address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" } } }],
          fee_limit: 100000000,
        },
      },
    },
    placeholders: {
      "<token>": 'the `token` of a pending Tron link (a [payout link](#createSecurePayout) with `"network": "tron"`)',
      "<txID>":
        "the `txID`, `raw_data_hex`, `signature` and `raw_data` of the transaction TronLink signed (`tronWeb.trx.sign`): its approval of the link's token, or its payment",
      "<raw_data_hex>": "as above",
      "<signature>": "as above",
    },
  }),
  securePaymentRefreshStep: (ctx) => ({
    params: { token: "<token>" },
    body: { step: { id: "<stepId>", type: "cross", tool: "across", action: { toChainId: ctx.chainId, toAddress: ctx.payee } } },
    placeholders: {
      ...TOKEN,
      "<stepId>":
        "the `id` of the LI.FI route step the payer chose (from [Transactions that pay a link](#paySecurePayment) with a source chain and token)",
    },
  }),
  redeliverWebhook: () => ({
    params: { id: "<id>", deliveryId: "<deliveryId>" },
    placeholders: { ...WEBHOOK_ID, "<deliveryId>": `the \`id\` of one of its [deliveries](#listWebhookDeliveries)` },
  }),
  activateRecurringPayout: (ctx) => ({
    params: { id: "<id>" },
    body: { permitSignature: "<permitSignature>" },
    placeholders: {
      ...RECURRING_ID(ctx),
      "<permitSignature>":
        "the payer's EIP-712 signature of that answer's `recurringPaymentPermit` (its `domain`, `types`, `primaryType` and `values` as the message), after sending its `transactions`",
    },
  }),
  getRecurringPayout: (ctx) => ({ params: { id: "<id>" }, placeholders: RECURRING_ID(ctx) }),
  manageRecurringPayout: (ctx) => ({ params: { id: "<id>" }, body: { action: "cancel" }, placeholders: RECURRING_ID(ctx) }),
  lookupPayeeDestinationV1: (ctx) => ({ query: { walletAddress: ctx.payee } }),
  payoutLookupPayeeDestinationV1: (ctx) => ({ query: { walletAddress: ctx.payee } }),
  verifyWalletChallenge: () => ({
    body: { challengeId: "<challengeId>", nonce: "<nonce>", message: "<message>", signature: "<signature>" },
    placeholders: CHALLENGE,
  }),
  linkClientId: () => ({ body: { clientId: "<clientId>" }, status: 201, placeholders: PLATFORM_CLIENT_ID }),
  unlinkClientId: () => ({ params: { clientId: "<clientId>" }, placeholders: LINKED_CLIENT_ID }),
  createClientIdLinkIntent: () => ({
    body: { clientIdName: "Acme shop", domains: ["https://shop.acme.example"], externalId: "acme-42" },
  }),
  completeOnboarding: () => ({
    body: { token: "<onboardingToken>" },
    placeholders: {
      "<onboardingToken>": `the \`token\` query parameter of the \`url\` of [Invite a platform](#createClientIdLinkIntent); the session is the platform's wallet session, and its account needs an active [payout destination](#createPayeeDestination)`,
    },
  }),
  deactivateOrchestratorWebhook: () => ({ params: { id: "<id>" }, placeholders: ORCHESTRATOR_WEBHOOK_ID }),
  reactivateOrchestratorWebhook: () => ({ params: { id: "<id>" }, placeholders: ORCHESTRATOR_WEBHOOK_ID }),
  createOrchestratorWebhook: () => ({ body: { url: "https://platform.example.com/webhooks/duebill" } }),
  createOrchestratorFeeConfig: (ctx) => ({
    body: { flow: "get_paid", percentageBps: 100, capUsd: "5", feeBearer: "payer", evmAddress: ctx.payee, label: "Platform fee" },
  }),
  updateOrchestratorFeeConfig: () => ({
    params: { id: "<id>" },
    body: { percentageBps: 150, capUsd: "2.50", label: "Platform fee" },
    placeholders: FEE_CONFIG_ID,
  }),
  disableOrchestratorFeeConfig: () => ({ params: { id: "<id>" }, placeholders: FEE_CONFIG_ID }),
  ...BRANDING_EXAMPLES,
  getOrchestratorLinkOfClientId: () => ({ params: { id: "<id>" }, placeholders: CLIENT_ID_ID }),
  endOrchestratorLinkOfClientId: () => ({
    params: { id: "<id>" },
    placeholders: { "<id>": `${from("id")} of one of your client IDs [linked](#linkClientId) to an orchestrator` },
  }),
};
