import { z } from "zod";
import { invoiceInputSchema } from "@/lib/operations/invoice-schemas";

const label = z
  .string()
  .min(1)
  .max(255)
  .refine((s) => !/[<>&"'`]/.test(s), "must not contain < > & \" ' or `");

const redirectUrl = z
  .string()
  .max(2048)
  .refine((s) => /^https?:\/\//.test(s) && URL.canParse(s), "must be an http(s) URL");

/** The most digits an amount may have before its decimal point (10^18 of any currency is more than exists). */
export const AMOUNT_MAX_WHOLE_DIGITS = 18;
/** The most decimals of any token served (ETH-like 18); each currency's own, fewer, are checked by lib/money's parseAmount. */
export const AMOUNT_MAX_FRACTION_DIGITS = 18;

/**
 * A positive decimal amount as the API takes it ("12.50"), at most 18 digits before the point and
 * `fractionDigits` after. The API uses 18 (the currency's own decimals are the domain's check); a
 * form that knows its currency derives the schema with that currency's decimals.
 */
export function decimalAmountSchema(fractionDigits: number = AMOUNT_MAX_FRACTION_DIGITS) {
  const bound = `at most ${AMOUNT_MAX_WHOLE_DIGITS} digits before the point and ${fractionDigits} after`;
  const maxLength = AMOUNT_MAX_WHOLE_DIGITS + 1 + fractionDigits;
  return z
    .string()
    .min(1)
    .max(maxLength, bound)
    .regex(/^\d+(\.\d+)?$/, 'must be a positive decimal string such as "12.50"')
    .refine((s) => {
      const [whole = "", frac = ""] = s.split(".");
      // Longer than maxLength is max's issue already: one message per refusal.
      return s.length > maxLength || (whole.length <= AMOUNT_MAX_WHOLE_DIGITS && frac.length <= fractionDigits);
    }, bound)
    .refine((s) => /[1-9]/.test(s), "must be greater than 0");
}

export const accessPolicySchema = z.strictObject({
  mode: z.enum(["inherit", "off", "kyt_all_wallets"]),
  allowedPayerAddresses: z.array(z.string().max(100)).max(100).optional(),
  maskPayee: z.boolean().optional().meta({ description: "Hide the payee address on the hosted page" }),
  hidePayeeAddress: z.boolean().optional().meta({ description: "The reference's name for maskPayee" }),
  hideUntilApproved: z
    .boolean()
    .optional()
    .meta({ description: "Hide the payee until screening approves the payer: the address appears only in the calldata served after it" }),
  screeningProvider: z.string().max(64).nullable().optional().meta({
    description:
      "The screening provider for this link's payers: one of this deployment's (duebill-sanctions; chainalysis when configured). The reference's hypernative and merklescience are refused with 400 naming accessPolicy.screeningProvider: this deployment has no adapter for them",
  }),
});

export const createSecurePaymentBodySchema = z.strictObject({
  requests: z
    .array(z.strictObject({ amount: decimalAmountSchema(), destinationId: z.string().max(200).optional() }))
    .min(1)
    .max(50),
  destinationId: z.string().max(200).optional(),
  reference: z.string().min(1).max(255).optional(),
  payerIdentifier: z.string().min(1).max(255).optional(),
  redirectUrl: redirectUrl.optional(),
  redirectLabel: label.optional(),
  accessPolicy: accessPolicySchema.optional(),
  feePercentage: z.string().max(20).optional().meta({ description: "Accepted and ignored: fees come from the fee plan" }),
  feeAddress: z.string().max(100).optional().meta({ description: "Accepted and ignored" }),
  description: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .meta({ description: "Duebill extension: what the payer pays for, shown on the hosted page" }),
  lineItems: z
    .array(
      z.strictObject({
        description: z.string().min(1).max(120),
        quantity: z.number().int().min(1).max(10_000).optional().meta({ description: "Default 1" }),
        unitAmount: decimalAmountSchema().meta({ example: "12.50" }),
        taxRate: z.string().max(12).nullable().optional().meta({
          description:
            'Duebill extension: tax in percent ("20"), 0 to 100, at most 4 decimals; with it the items add up as net + tax, the tax rounded half up per line to the token\'s smallest unit',
        }),
      }),
    )
    .min(1)
    .max(50)
    .optional()
    .meta({
      description:
        "Duebill extension: shown on the hosted page; quantity × unitAmount (+ its tax when an item has a taxRate) must add up to the requests' amounts. Not with `invoice`",
    }),
  invoice: invoiceInputSchema.optional().meta({
    description:
      "Duebill extension: a numbered invoice for this link, in the link's token; its computed total must equal the requests' amounts (400 naming requests.0.amount, or requests, and the line). Not with `lineItems`",
  }),
  collectPayerEmail: z
    .boolean()
    .optional()
    .meta({
      description:
        "Duebill extension: the hosted page asks the payer for an email (optional for the payer) and sends the receipt there once the " +
        "payment is confirmed (POST /v2/secure-payments/{token}/payer-email). Needs this deployment to send email (SMTP_URL): without it, " +
        "400 naming collectPayerEmail. Default false",
    }),
  excessPolicy: z
    .enum(["return", "offer", "keep"], "must be return, offer or keep")
    .optional()
    .meta({
      description:
        "Duebill extension: what happens to an overpayment's excess and to an underpaid or late payment — return (sent back " +
        "automatically from the link's deposit address; where that cannot be, offered), offer (a one-click refund offered to you), " +
        "keep. Default: the account's (Settings; offer)",
    }),
});

export const createPayoutLinkBodySchema = z.strictObject({
  recipient: z.string().min(1).max(100),
  creatorWalletAddress: z.string().min(1).max(100),
  network: z.string().max(32),
  currency: z.string().max(96).meta({ example: "USDC-base" }),
  amount: z.string().max(80),
  reference: z.string().min(1).max(255).optional(),
  recipientIdentifier: z.string().min(1).max(255).optional(),
  redirectUrl: redirectUrl.optional(),
  redirectLabel: label.optional(),
});

export const linkResponseSchema = z
  .object({
    requestIds: z.array(z.string()),
    securePaymentUrl: z.string(),
    token: z.string(),
    feePlan: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: "SecurePaymentLink" });

export type CreateSecurePaymentBody = z.infer<typeof createSecurePaymentBodySchema>;
export type CreatePayoutLinkBody = z.infer<typeof createPayoutLinkBodySchema>;

export const feePreviewBodySchema = z.strictObject({
  amount: z.string().min(1).max(80).meta({ description: 'Gross amount in human units, e.g. "12.5"', example: "100" }),
  currency: z
    .string()
    .min(1)
    .max(40)
    .meta({ description: "A dollar stablecoin's symbol or currency ID (USDC, USDC-base)", example: "USDC" }),
  flow: z.enum(["get_paid", "pay"]).meta({ description: "`get_paid`: a link you are paid through; `pay`: a payout link" }),
  defaultFeeBearer: z
    .enum(["payer", "payee"])
    .optional()
    .meta({ description: "Overrides the flow's default; a fee configuration's own bearer still wins" }),
});

const usdString = z.string().meta({ example: "1.00" });
export const feePlanSchema = z
  .object({
    version: z.literal(1),
    flow: z.enum(["get_paid", "pay"]),
    defaultFeeBearer: z.enum(["payer", "payee"]),
    grossAmountUsd: usdString,
    netRecipientAmountUsd: usdString,
    payerTotalAmountUsd: usdString,
    totalFeesUsd: usdString,
    payeeBorneFeesUsd: usdString,
    payerBorneFeesUsd: usdString,
    fees: z.array(
      z.object({
        type: z.string(),
        label: z.string(),
        feeBearer: z.enum(["payer", "payee"]),
        feeBearerSource: z.enum(["fee_config", "payment_default_override", "flow_default", "forced_fee_policy"]),
        percentageBps: z.number(),
        capUsd: z.string().nullable(),
        fixedAmountUsd: z.string().nullable().optional(),
        calculatedAmountUsd: z.string(),
        destinationResolver: z.string(),
        destinationRef: z.object({ evmAddress: z.string().optional(), tronAddress: z.string().optional() }),
        configSource: z.string(),
      }),
    ),
  })
  .meta({ id: "FeePlan" });

export const batchPayoutsBodySchema = z.strictObject({
  tokens: z
    .array(z.string().min(1).max(64))
    .min(2)
    .max(150)
    .meta({ description: "Pending single-payout link tokens of this account (same network, currency and creator wallet)" }),
  redirectUrl: redirectUrl.optional(),
  redirectLabel: label.optional(),
});
