import { z } from "zod";
import { invoiceViewSchema } from "@/lib/operations/invoice-schemas";
import { missingFeeSchema } from "@/lib/operations/requests-schemas";
import { linkExcessShape } from "@/lib/operations/secure-payment-view-schemas";

const kytResult = z.object({
  walletAddress: z.string(),
  walletType: z.enum(["eoa", "smart_account"]),
  parentWalletAddress: z.string().nullable(),
  status: z.string().nullable(),
  reasonCode: z.string().nullable(),
  provider: z.string().nullable(),
  providerReference: z.string().nullable(),
  reportUrl: z.string().nullable(),
  notes: z.string().nullable(),
  rawStatus: z.string().nullable(),
  evaluatedAt: z.string().nullable(),
});

export const securePaymentSchema = z
  .object({
    token: z.string(),
    securePaymentUrl: z.string(),
    status: z.enum(["pending", "completed", "expired", "invalidated", "compliance_failed"]),
    paymentType: z.enum(["single", "batch"]),
    createdAt: z.string().nullable(),
    expiresAt: z.string(),
    redirectUrl: z.string().nullable(),
    redirectLabel: z.string().nullable(),
    completedAt: z.string().nullable(),
    payerAddress: z.string().nullable().meta({ description: "Who paid: the wallet the tokens came from (a smart account's contract)" }),
    payerEoaAddress: z.string().nullable().meta({
      description:
        "The EOA behind payerAddress: the same for a plain wallet; for a smart account the transaction's sender (a Safe's executing owner); null when not known (an ERC-4337 bundle) or not paid",
    }),
    payerKytResults: z.array(kytResult),
    payeeKytResults: z.array(kytResult),
    destination: z.record(z.string(), z.unknown()).nullable(),
    claimedDestination: z.record(z.string(), z.unknown()).nullable(),
    orchestratorId: z.string().nullable(),
    feePlan: z.record(z.string(), z.unknown()).nullable(),
    network: z.string(),
    currency: z.string().nullable(),
    executionKind: z.enum(["evm_same_chain", "evm_cross_chain", "tron_batch"]).nullable(),
    identityMode: z.enum(["manual_dashboard", "client_id"]),
    clientId: z.string().nullable(),
    branding: z.object({
      whitelabelEnabled: z.boolean(),
      source: z
        .enum(["client_id", "request_network"])
        .meta({ description: "client_id: the orchestrator's branding of a linked client ID" }),
      displayName: z.string().nullable().optional(),
      logoUrl: z.string().nullable().optional(),
      accentColor: z.string().nullable().optional(),
      supportUrl: z.string().nullable().optional(),
    }),
    childExecutable: z.boolean(),
    blockReason: z.string().nullable(),
    subStatus: z.enum(["fee_short"]).nullable().meta({
      description:
        "Duebill extension: fee_short when the request's payment came without its whole fee (the link stays pending); null otherwise",
    }),
    missingFees: z.array(missingFeeSchema).meta({ description: "With fee_short: each fee leg below its share" }),
    collectPayerEmail: z.boolean().meta({ description: "Duebill extension: the hosted page asks the payer for a receipt email" }),
    payerEmail: z.string().nullable().meta({ description: "Duebill extension: the email the payer gave (shown to you only)" }),
    ...linkExcessShape,
    invoice: invoiceViewSchema.nullable().meta({ description: "Duebill extension: the link's invoice (lib/invoices), or null" }),
  })
  .meta({ id: "SecurePayment" });
