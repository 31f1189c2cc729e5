import { z } from "zod";
import { invoiceViewSchema } from "@/lib/operations/invoice-schemas";
import {
  amountLabelShape,
  type crossChainPayResponseSchema,
  excessPolicySchema,
  missingFeeSchema,
} from "@/lib/operations/requests-schemas";
import type { LinkDeposit } from "@/lib/secure-payments/deposit";
import type { CrossChainSource, PaymentPageData, PaymentPageItem } from "@/lib/secure-payments/page-types";

/**
 * What the hosted page reads from the public API. `checkout` of `GET /v2/secure-payments/{token}`
 * is Duebill's view of a link, the one the page renders (server side from getPaymentPage, client
 * side when it polls); the deposit address and the cross-chain plan are the page's other answers.
 * The page's client code takes its types from here (`import type { Checkout }`), so what it reads
 * is what the operations document; the checks at the bottom keep these schemas and lib's types equal.
 */

const status = z.enum(["pending", "completed", "expired", "invalidated", "compliance_failed"]);
const decimal = (description: string) => z.string().meta({ description: `${description} (human decimal)` });
const brand = {
  logoUrl: z.string().nullable(),
  accentColor: z.string().nullable(),
  supportUrl: z.string().nullable(),
};

export const checkoutItemSchema = z.object({
  requestId: z.string(),
  paymentReference: z.string(),
  amount: decimal("What the payee receives in all"),
  payee: z.string(),
  state: z.enum(["due", "paid", "excluded"]).meta({
    description: "due: the next transaction pays it; paid: paid already; excluded: a multicall child no longer payable here",
  }),
  due: decimal('What the next transaction sends this payee ("0" unless due)'),
  dueFee: decimal('What the next transaction sends in fees for this payment ("0" unless due)'),
  feeShort: z.boolean().meta({ description: "Its amount arrived without its whole fee" }),
});

export const checkoutCrossChainSourceSchema = z.object({
  chain: z.string().meta({ description: "The `chain` value of the pay call (ARBITRUM, BASE, …)" }),
  tokens: z.array(z.string()),
  network: z.object({ chainId: z.number().int(), name: z.string(), rpcUrl: z.string().nullable(), testnet: z.boolean() }),
});

export const checkoutSchema = z
  .object({
    token: z.string(),
    status,
    direction: z.enum(["incoming", "outgoing"]),
    paymentType: z.enum(["single", "batch"]),
    network: z.object({
      id: z.string(),
      name: z.string(),
      chainId: z.number().int(),
      kind: z.enum(["evm", "tron"]),
      explorerTxUrl: z.string(),
      testnet: z.boolean(),
    }),
    rpcUrl: z.string().nullable().meta({ description: "RPC URL the browser wallet may use (local devnets); null otherwise" }),
    currency: z.object({
      id: z.string(),
      symbol: z.string(),
      decimals: z.number().int(),
      address: z.string(),
      official: z.boolean().meta({ description: "The network's official token contract, not a stand-in" }),
    }),
    totalAmount: decimal("What the next transaction sends, fees included"),
    payerFees: decimal("Fees within totalAmount"),
    fullAmount: decimal("The link's whole amount, fees included"),
    fullFees: decimal("Fees within fullAmount"),
    paidAmount: decimal("What the link's payments already received"),
    subStatus: z.enum(["fee_short"]).nullable(),
    missingFees: z.array(missingFeeSchema),
    amountDue: decimal("The same sum as totalAmount, under the fee rule's name"),
    items: z.array(checkoutItemSchema),
    payee: z.object({ display: z.string(), masked: z.boolean() }),
    recipients: z.array(z.string()),
    feeRecipients: z.array(z.string()),
    reference: z.string().nullable(),
    expiresAt: z.string(),
    completedAt: z.string().nullable(),
    redirectUrl: z.string().nullable(),
    redirectLabel: z.string().nullable(),
    payerAddress: z.string().nullable(),
    txHash: z.string().nullable(),
    receiptUrl: z
      .string()
      .nullable()
      .meta({ description: "Once completed: the page of the signed receipt of the payment that completed it (docs/guides/receipts.md)" }),
    branding: z.object({ displayName: z.string(), ...brand }).nullable(),
    merchant: z
      .object({ name: z.string(), ...brand })
      .nullable()
      .meta({ description: "Who is paid, as the payer should read it" }),
    description: z.string().nullable(),
    lineItems: z.array(
      z.object({
        description: z.string(),
        quantity: z.number(),
        unitAmount: z.string(),
        taxRate: z.string().nullable().meta({ description: "Percent, or null: no tax on this item" }),
        tax: decimal('quantity × unitAmount × taxRate / 100, rounded half up per item; "0" without a rate'),
        total: decimal("quantity × unitAmount + tax"),
      }),
    ),
    invoice: invoiceViewSchema.nullable().meta({ description: "The link's invoice (number, dates, lines with tax, totals), or null" }),
    collectPayerEmail: z.boolean().meta({ description: "The page asks the payer for an email for the receipt" }),
    payerEmailGiven: z.boolean().meta({ description: "The payer gave one (the address itself is never shown here)" }),
    payByTransfer: z.boolean().meta({ description: "The payer may pay with a plain transfer to a deposit address" }),
    crossChainSources: z.array(checkoutCrossChainSourceSchema).meta({ description: "Chains the payer may pay from instead" }),
    ...amountLabelShape,
    effectiveExcessPolicy: excessPolicySchema.meta({
      description:
        "What happens to an excess, an underpaid or a late payment: return (sent back from the deposit address), " +
        "offer (the merchant is offered a one-click refund), keep",
    }),
    returnsToSender: z.boolean().meta({
      description:
        "Under return: tokens reached the deposit address from one wallet (not a contract), so what was not asked goes back to it",
    }),
  })
  .meta({
    id: "Checkout",
    description: "Duebill extension: the hosted checkout's view (merchant, line items, network details, totals with fees, status)",
  });

/** `POST /v2/secure-payments/{token}/deposit-address`: how to pay the link with a plain token transfer. */
export const linkDepositSchema = z.object({
  address: z.string(),
  network: z.object({ id: z.string(), name: z.string(), chainId: z.number() }),
  token: z.object({ symbol: z.string(), address: z.string(), decimals: z.number() }),
  amount: z.string(),
  amountUnits: z.string(),
  received: z.string(),
  remaining: z.string(),
  uri: z.string(),
  qrSvg: z.string(),
});

export type Checkout = z.infer<typeof checkoutSchema>;
export type CheckoutItem = z.infer<typeof checkoutItemSchema>;
export type CheckoutCrossChainSource = z.infer<typeof checkoutCrossChainSourceSchema>;
export type CheckoutStatus = Checkout["status"];
export type LinkDepositAnswer = z.infer<typeof linkDepositSchema>;
/** `GET /v2/secure-payments/{token}/pay` with `chain` and `token`: the source chain's transactions and the quote. */
export type CrossChainPayAnswer = z.infer<typeof crossChainPayResponseSchema>;

// The domain's type and the documented schema stay one shape: each must be assignable to the other.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same: [
  Same<Checkout, PaymentPageData>,
  Same<CheckoutItem, PaymentPageItem>,
  Same<CheckoutCrossChainSource, CrossChainSource>,
  Same<LinkDepositAnswer, LinkDeposit>,
] = [true, true, true, true];
void same;
