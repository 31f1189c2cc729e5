import { z } from "zod";
import { amountLabelShape } from "@/lib/operations/amount-label-schemas";
import { customerInfoSchema, invoiceInputSchema, invoiceViewSchema } from "@/lib/operations/invoice-schemas";
import { refundTotalsShape } from "@/lib/operations/refund-view-schemas";
import { recurrenceStatusShape } from "@/lib/operations/request-recurrence-schemas";

const decimalString = z.string().max(80).meta({ description: "Decimal string in the invoice currency", example: "12.50" });
const address = z.string().min(1).max(100).meta({ description: "EVM 0x address or Tron base58 T... address" });

const termsFields = {
  amount: decimalString,
  invoiceCurrency: z.string().min(1).max(96).meta({ example: "USD" }),
  paymentCurrency: z.string().min(1).max(96).meta({ example: "USDC-base" }),
  feePercentage: z
    .string()
    .max(20)
    .optional()
    .meta({ description: 'Fee in percent, paid by the payer on top of the amount ("2.5" = 2.5 %)' }),
  feeAddress: address.optional().meta({ description: "Receiver of the fee; required with a non-zero feePercentage" }),
};

export const createRequestBodySchema = z.strictObject({
  ...termsFields,
  payee: address.optional().meta({ description: "Receiving address (required)" }),
  payer: address.optional(),
  reference: z.string().min(1).max(255).optional(),
  customerInfo: customerInfoSchema.optional(),
  recurrence: z
    .strictObject({
      startDate: z.string().max(40).meta({
        description: "First period's date: YYYY-MM-DD (midnight UTC, from today on) or an ISO date-time not in the past",
        example: "2030-01-01",
      }),
      frequency: z.enum(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]),
    })
    .optional()
    .meta({
      description:
        "A recurring request: this request is period 1, and a new request (its own payment reference, the same terms) is created for each later period when its date arrives, with a request.recurring webhook; stop it with PATCH /v2/request/{requestId} {isRecurrenceStopped: true}",
    }),
  isCryptoToFiatAvailable: z.boolean().optional(),
  invoice: invoiceInputSchema.optional(),
});

export const createRequestResponseSchema = z
  .object({
    requestId: z.string().meta({ example: `01${"e2".repeat(32)}` }),
    paymentReference: z.string().meta({ example: "0xb3581f0b0f74cc61" }),
  })
  .meta({ id: "CreateRequestResponse" });

/** A fee leg short of its share (subStatus fee_short): where it should go and how much is missing. */
export const missingFeeSchema = z
  .object({
    type: z.string().meta({ example: "platform" }),
    feeAddress: z.string().meta({ description: "The fee plan's address this leg is owed to" }),
    amount: z.string().meta({ description: "Missing, in the currency below (human decimal)", example: "5" }),
    currency: z.string().meta({ example: "USDC" }),
  })
  .meta({ id: "MissingFee" });

export const requestIdParamsSchema = z.object({ requestId: z.string().max(100) });

export const paymentSchema = z.object({
  txHash: z.string(),
  amount: z.string(),
  feeAmount: z.string(),
  payer: z.string().nullable(),
  blockNumber: z.number(),
  timestamp: z.string(),
  explorer: z.string(),
});

const conversionBreakdownSchema = z.object({
  paidAmount: z.string().meta({ description: "In the invoice currency" }),
  paidAmountInUsd: z.string().nullable(),
  remainingAmount: z.string(),
  remainingAmountInUsd: z.string().nullable(),
  currentMarketRate: z
    .string()
    .nullable()
    .meta({ description: "Payment-currency units per invoice unit now (ChainlinkConversionPath); null when it cannot be read" }),
  currentMarketRateSource: z.literal("chainlink"),
  payments: z.array(
    z.object({
      amount: z.string().meta({ description: "Invoice-currency amount the conversion proxy credited" }),
      amountInUsd: z.string().nullable(),
      conversionRate: z.string().nullable(),
      rateSource: z.literal("chainlink"),
      timestamp: z.string(),
    }),
  ),
});

export const requestStatusSchema = z
  .object({
    requestId: z.string(),
    paymentReference: z.string(),
    hasBeenPaid: z.boolean(),
    status: z.enum(["pending", "partially_paid", "paid"]),
    subStatus: z
      .enum(["fee_short"])
      .nullable()
      .meta({
        description:
          "Why a partially_paid request is not paid: fee_short when a fee leg got less than its share of what was paid " +
          "(a fee paid to another address does not count); null otherwise. GET /pay then asks for exactly what is missing.",
      }),
    missingFees: z.array(missingFeeSchema).nullable().meta({ description: "With subStatus fee_short: each fee leg below its share" }),
    isListening: z.boolean(),
    txHash: z.string().nullable(),
    network: z.string(),
    payee: z.string(),
    payer: z.string().nullable(),
    amount: z.string(),
    invoiceCurrency: z.string(),
    paymentCurrency: z.string(),
    expectedAmount: z.string().meta({
      description: "Amount owed in the payment currency; for a conversion request (EUR, GBP, CNY, JPY invoice), in the invoice currency",
    }),
    totalAmountPaid: z.string(),
    payments: z.array(paymentSchema),
    reference: z.string().nullable(),
    customerInfo: customerInfoSchema.nullable(),
    fees: z.array(z.object({ type: z.string(), provider: z.string(), amount: z.string(), currency: z.string() })).nullable(),
    amountInUsd: z.string().nullable().meta({
      description:
        "Conversion requests: the invoice amount in USD (paid part at the payments' rates, the rest at the current rate); null otherwise",
    }),
    conversionRate: z.string().nullable().meta({
      description:
        "Conversion requests: payment-currency units per invoice-currency unit the payments were made at (else the current rate); null otherwise",
    }),
    rateSource: z
      .enum(["lifi", "chainlink", "coingecko", "unknown", "mixed"])
      .optional()
      .meta({ description: "Where conversion rates come from (chainlink); absent when not a conversion request" }),
    conversionBreakdown: conversionBreakdownSchema.nullable(),
    invoice: invoiceViewSchema
      .nullable()
      .optional()
      .meta({ description: "Duebill extension: the request's invoice (or its link's), null without one" }),
    ...recurrenceStatusShape,
    ...refundTotalsShape,
    ...amountLabelShape,
    createdAt: z.string(),
  })
  .meta({ id: "RequestStatus" });

const walletField = address.meta({ description: "Payer wallet address" });

export const payQuerySchema = z.object({
  wallet: walletField.optional(),
  chain: z.string().max(32).optional().meta({
    description:
      "Source chain for cross-chain payment: ETHEREUM, ARBITRUM, BASE, OPTIMISM or POLYGON (with token; omit both for same-chain)",
  }),
  token: z
    .string()
    .max(16)
    .optional()
    .meta({ description: "Source token for cross-chain payment: USDC, USDT, or USDT0 where the source chain has it (with chain)" }),
  quoteId: z.string().max(64).optional().meta({
    description:
      "Cross-chain: the same calldata as an earlier answer (its metadata.quoteId) while its quote holds. A fiat invoice on Tron: an earlier plan's metadata.conversion.quote.id (cq_…), without chain and token. 400 once expired",
  }),
  amount: z
    .string()
    .max(80)
    .optional()
    .meta({
      description:
        "Partial payment: pay this part of what is still owed (decimal in the invoice currency, with its decimals, as the request's `amount`); " +
        "the fee is the part's share. Omit to pay everything owed. Same-chain only",
      example: "4",
    }),
});

export const routesQuerySchema = z.object({
  wallet: walletField,
  feePercentage: z.string().max(20).optional(),
  feeAddress: address.optional(),
});

export const txSchema = z.object({
  data: z.string(),
  to: z.string(),
  value: z.object({ type: z.literal("BigNumber"), hex: z.string() }),
});

export const payMetadataSchema = z.object({
  stepsRequired: z.number().int(),
  needsApproval: z.boolean(),
  approvalTransactionIndex: z.number().int().nullable(),
  paymentTransactionIndex: z.number().int(),
  hasEnoughBalance: z.boolean(),
  hasEnoughGas: z.boolean(),
  conversion: z
    .object({
      invoiceCurrency: z.string(),
      requestAmount: z.string().meta({ description: "Invoice-currency amount passed to the proxy" }),
      feeAmount: z.string(),
      paymentCurrency: z.string(),
      path: z.array(z.string()).meta({ description: "ChainlinkConversionPath path: currency hashes, then the token address" }),
      rate: z.string().meta({ description: "Payment-currency units per invoice-currency unit used to build the calldata" }),
      rateSource: z.literal("chainlink"),
      rateUpdatedAt: z.string().meta({ description: "Update time of the path's oldest price feed" }),
      rateAgeSeconds: z.number().int().meta({ description: "Age of that rate at the latest block" }),
      maxRateTimespan: z.number().int(),
      rateExpiresAt: z.string().meta({ description: 'After this the proxy reverts "aggregator rate is outdated" unless the feed updates' }),
      rateIsStale: z.boolean(),
      convertedAmount: z.string(),
      convertedFeeAmount: z.string(),
      maxToSpend: z.string().meta({ description: "Converted amount + fee + 1 %: the most the proxy may take" }),
      warning: z.string().nullable().meta({ description: "Why the payment would revert as built (stale rate), or null" }),
      rateNetwork: z
        .string()
        .optional()
        .meta({ description: "Tron (quoted): the EVM network whose ChainlinkConversionPath the rate was read on" }),
      quote: z
        .object({
          id: z.string().meta({ description: "Pass as quoteId to get this plan again while the quote holds", example: "cq_01jd…" }),
          rate: z.string().meta({ description: "Payment-currency units per invoice-currency unit, fixed until expiresAt" }),
          amountIn: z.string().meta({ description: "Token base units the payment sends to the payee (the fee-proxy call's amount)" }),
          feeAmountIn: z.string().meta({ description: "Token base units the payment sends to the fee address" }),
          expiresAt: z.string().meta({ description: "After this (plus graceSeconds for the block) a transfer no longer pays the invoice" }),
          graceSeconds: z.number().int(),
        })
        .optional()
        .meta({
          description:
            "Tron only (no conversion proxy): the token amount is fixed here; a transfer of at least amountIn credits requestAmount of the invoice",
        }),
    })
    .optional()
    .meta({
      description:
        "Conversion requests only: the rate the calldata uses (Erc20ConversionProxy; on Tron, a quote with the rate fixed until rateExpiresAt, maxRateTimespan its window)",
    }),
});

export const sameChainPayResponseSchema = z.object({ transactions: z.array(txSchema), metadata: payMetadataSchema });

/** Cross-chain calldata (chain and token given): values are hex strings; the approval is always included. */
export const crossChainPayResponseSchema = z.object({
  transactions: z.array(z.object({ data: z.string(), to: z.string(), value: z.string() })),
  metadata: z.object({
    stepsRequired: z.number().int(),
    needsApproval: z.boolean(),
    approvalTransactionIndex: z.number().int().nullable(),
    paymentTransactionIndex: z.number().int(),
    routeType: z.literal("crosschain"),
    quoteExpiresAt: z.number().int().meta({ description: "Unix time (seconds) after which the quote is not honoured" }),
    hasEnoughBalance: z.boolean(),
    sourceAmount: z.string().meta({ description: "What the payer spends on the source chain, bridge fees included" }),
    quoteId: z.string().meta({ description: "Pass as quoteId to get this answer again until quoteExpiresAt" }),
    routeId: z.string(),
    provider: z.string(),
    sourceChain: z.string(),
    sourceChainId: z.number().int(),
    sourceToken: z.string(),
    sourceTokenAddress: z.string(),
  }),
});

export const payResponseSchema = z.union([sameChainPayResponseSchema, crossChainPayResponseSchema]).meta({ id: "PaymentCalldata" });

export const routeSchema = z.object({
  id: z.string(),
  fee: z.number(),
  feeBreakdown: z.array(
    z.object({
      type: z.string(),
      stage: z.string(),
      provider: z.string(),
      amount: z.string(),
      amountInUSD: z.string().nullable(),
      currency: z.string(),
    }),
  ),
  speed: z.union([z.literal("FAST"), z.number()]),
  chain: z.string(),
  token: z.string(),
});

export const routesResponseSchema = z.object({ routes: z.array(routeSchema) }).meta({ id: "PaymentRoutes" });

export type CreateRequestBody = z.infer<typeof createRequestBodySchema>;

export { amountLabelShape, excessPolicySchema } from "@/lib/operations/amount-label-schemas";
export { customerInfoSchema } from "@/lib/operations/invoice-schemas";
