import { z } from "zod";
import { checkoutSchema } from "@/lib/operations/checkout-schemas";
import { amountSummarySchema, multicallViewSchema } from "@/lib/operations/multicall-schemas";
import {
  amountLabelShape,
  crossChainPayResponseSchema,
  excessPolicySchema,
  missingFeeSchema,
  payMetadataSchema,
  txSchema,
} from "@/lib/operations/requests-schemas";
import { feePlanSchema } from "@/lib/operations/secure-payments-schemas";

/**
 * The public shapes of a link's token routes, as the reference documents them (single and
 * batch variants), plus Duebill's `checkout` view of the link (what the hosted page renders).
 */
const status = z.enum(["pending", "completed", "expired", "invalidated", "compliance_failed"]);

const branding = z
  .object({
    id: z.string(),
    clientIdId: z.string().optional(),
    orchestratorId: z.string().optional(),
    logoPath: z.string().optional(),
    primaryActionColor: z.string().optional(),
    displayRequestBranding: z.boolean(),
    displayName: z.string().meta({ description: "Duebill extension: the brand name the hosted page shows" }),
  })
  .nullable()
  .meta({ description: "The orchestrator's branding of a linked client ID's link; null: Duebill's own look" });

const destination = z.object({
  destinationId: z.string().optional().meta({ description: "Omitted when the payee is masked" }),
  payeeAddress: z.string().meta({ description: "ERC-7828 interop name of the payee (masked when the policy hides it)" }),
  tokenAddress: z.string(),
  walletAddress: z.string(),
  network: z.string(),
  isMasked: z.boolean(),
});

const paymentOptions = z
  .record(z.string(), z.record(z.string(), z.object({ balance: z.string(), hasEnoughBalance: z.boolean(), neededAmount: z.string() })))
  .optional()
  .meta({ description: "With ?wallet=: {network: {token: {balance, hasEnoughBalance, neededAmount}}} for a pending link" });

/** A link's wrong-amount label and policy (Duebill extension, docs/guides/refunds.md): the public view and the secure payment object. */
export const linkExcessShape = {
  ...amountLabelShape,
  excessPolicy: excessPolicySchema.nullable().meta({
    description: "Duebill extension: the link's own wrong-amount policy as created (excessPolicy); null: the account's",
  }),
  effectiveExcessPolicy: excessPolicySchema.meta({
    description:
      "Duebill extension: the policy that applies — the link's, else the account's; `return` reads `offer` where the link cannot " +
      "take deposits to an address of Duebill's own deposit contract (a batch, a payout, a network without DuebillDepositFactory). " +
      "A wallet payment to a `return` link is offered to the payee (nothing in the payee's wallet moves without it)",
  }),
};

const common = {
  paymentOptions,
  status,
  redirectUrl: z.string().nullable(),
  redirectLabel: z.string().nullable(),
  orchestratorId: z.string().nullable(),
  branding,
  analytics: z.object({
    creationTimestamp: z.string(),
    numberOfPaymentsExcludingFees: z.number().int(),
    destinationIds: z.array(z.string()),
  }),
  requestIds: z.array(z.string()),
  network: z.string().meta({ description: "Network id (sepolia, base, tron, …)" }),
  reference: z.string().nullable(),
  isPayeeAddressMasked: z.boolean(),
  feePlan: feePlanSchema.nullable(),
  subStatus: z
    .enum(["fee_short"])
    .nullable()
    .meta({
      description:
        "Duebill extension: fee_short when a payment reached the link without its whole fee (the link stays pending, its request " +
        "partially_paid; GET /pay asks for the missing fee alone); null otherwise",
    }),
  missingFees: z.array(missingFeeSchema).meta({ description: "With fee_short: each fee leg below its share" }),
  ...linkExcessShape,
  checkout: checkoutSchema,
};

export const publicLinkSchema = z
  .union([
    z.object({
      paymentType: z.literal("single"),
      ...common,
      payee: z.string(),
      amount: z.string().meta({ description: "What the payee receives (human decimal)" }),
      paymentCurrency: z.string().meta({ example: "USDC-sepolia" }),
      isNativeCurrency: z.boolean(),
      destination: destination.nullable(),
    }),
    z.object({
      paymentType: z.literal("batch"),
      ...common,
      payees: z.array(z.string()),
      amounts: z.array(z.string()),
      paymentCurrencies: z.array(z.string()),
      isNativeCurrency: z.array(z.boolean()),
      destinations: z.array(destination),
    }),
    multicallViewSchema.extend({ checkout: common.checkout, paymentOptions }),
  ])
  .meta({ id: "SecurePaymentPublicView" });

const feeBundle = z
  .object({
    bundleId: z.string().nullable(),
    defaultFeeBearer: z.enum(["payer", "payee"]).nullable(),
    amountSummary: amountSummarySchema.nullable(),
    fees: z.array(z.unknown()).meta({ description: "Empty: fees are paid inside the payment transaction (the fee proxy's fee leg)" }),
  })
  .nullable()
  .meta({ description: "The link's fee plan in token amounts; null when no fee plan applies" });

const tokenPayExtras = {
  feeBundle,
  eoaApprovalTransactions: z.array(txSchema).meta({ description: "Always empty: Duebill's plans are sent by the paying wallet itself" }),
};

const sameChainMetadata = payMetadataSchema
  .omit({ approvalTransactionIndex: true })
  .extend({ approvalTransactionIndex: z.number().int().optional(), approvalTransactionsCount: z.number().int() });

/** isSafe=true (lib/secure-payments/safe.ts): the same plan, each call a Safe CALL, read for the Safe without a gas check. */
const safePlan = z
  .object({
    paymentType: z.enum(["single", "batch", "multicall"]),
    transactions: z.array(txSchema.extend({ operation: z.literal(0).meta({ description: "The Safe's operation: 0 = CALL" }) })),
    metadata: sameChainMetadata.omit({ hasEnoughGas: true }).extend({
      isSafe: z.literal(true),
      safePaymentDeadline: z.number().int().meta({ description: "Unix seconds: the link's expiry (the intent's default deadline)" }),
      multiSendData: z.string().meta({
        description:
          "multiSend(bytes) calldata (selector 0x8d80ff0a) packing every transaction: the Safe runs them as one Safe transaction " +
          "by DELEGATECALL (operation 1) into its chain's MultiSendCallOnly",
      }),
    }),
    ...tokenPayExtras,
  })
  .meta({ description: "isSafe=true: the plan for a Safe multisig (`wallet` is the Safe); batch and multicall fields as their variants" });

export const tokenPayResponseSchema = z
  .union([
    safePlan,
    z.object({ paymentType: z.literal("single"), transactions: z.array(txSchema), metadata: sameChainMetadata, ...tokenPayExtras }),
    z.object({
      paymentType: z.literal("batch"),
      transactions: z.array(txSchema),
      metadata: sameChainMetadata,
      ERC20ApprovalTransactions: z.array(txSchema),
      batchPaymentTransaction: txSchema,
      ...tokenPayExtras,
    }),
    z.object({
      paymentType: z.literal("single"),
      transactions: crossChainPayResponseSchema.shape.transactions,
      metadata: crossChainPayResponseSchema.shape.metadata
        .omit({ approvalTransactionIndex: true })
        .extend({ approvalTransactionIndex: z.number().int().optional(), approvalTransactionsCount: z.number().int() }),
      ...tokenPayExtras,
    }),
    z.object({
      paymentType: z.literal("multicall"),
      transactions: z.array(txSchema),
      executionKind: z.literal("evm_same_chain"),
      token: z.string(),
      network: z.string(),
      chainId: z.number().int().optional(),
      childTokens: z.array(z.string()),
      requestIds: z.array(z.string()),
      children: z.array(z.record(z.string(), z.unknown())),
      payees: z.array(z.string()),
      amounts: z.array(z.string()),
      references: z.array(z.string().nullable()),
      ERC20ApprovalTransactions: z.array(txSchema),
      batchPaymentTransaction: txSchema,
      metadata: sameChainMetadata.extend({ childCount: z.number().int(), executableLegCount: z.number().int() }),
      ...tokenPayExtras,
    }),
  ])
  .meta({ id: "SecurePaymentCalldata" });
