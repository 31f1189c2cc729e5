import { z } from "zod";

/** The signed receipt as served (lib/receipts/types.ts; the format: docs/guides/receipts.md). */
const s = (description: string) => z.string().meta({ description });
const line = z.object({
  description: z.string(),
  quantity: z.string(),
  unitPrice: z.string(),
  taxRate: z.string().nullable(),
  net: z.string(),
  tax: z.string(),
  total: z.string(),
});

export const receiptPayloadSchema = z.object({
  version: z.literal("duebill.receipt.v1"),
  id: s("rcp_… (unguessable): the receipt's id, the last segment of `issuer.verifyUrl`"),
  kind: z.enum(["payment", "refund"]),
  issuedAt: z.string(),
  issuer: z.object({
    name: z.string(),
    url: s("the issuer's base URL: its keys are at url + /.well-known/duebill-receipt-keys.json"),
    verifyUrl: z.string(),
  }),
  merchant: z.object({ accountId: z.string(), name: z.string() }),
  request: z.object({
    requestId: z.string(),
    paymentReference: z.string(),
    reference: z.string().nullable(),
    amount: z.string(),
    invoiceCurrency: z.string(),
    paymentCurrency: z.string(),
    payee: z.string(),
    payer: z.string().nullable(),
    network: z.string(),
    feePercentage: z.string().nullable(),
    feeAddress: z.string().nullable(),
    invoice: z
      .object({
        number: z.string(),
        issueDate: z.string(),
        dueDate: z.string().nullable(),
        lines: z.array(line),
        subtotal: z.string(),
        taxTotal: z.string(),
        total: z.string(),
      })
      .nullable(),
  }),
  referenceDerivation: z.object({
    algorithm: z.string(),
    inputs: z.record(z.string(), z.string()),
    paymentReference: s("the reference the transfer was sent under (a refund's: its refund reference)"),
  }),
  transfer: z.object({
    network: z.string(),
    chainId: z.number().int().nullable(),
    token: z.object({ address: z.string(), symbol: z.string(), decimals: z.number().int() }),
    amount: s("base units"),
    amountDecimal: z.string(),
    feeAmount: s("base units"),
    feeAmountDecimal: z.string(),
    feeAddress: z.string().nullable(),
    from: z.string().nullable(),
    to: z.string(),
    emitter: s("the contract that emitted the event"),
    event: z.string(),
    txHash: z.string(),
    logIndex: z.number().int(),
    blockNumber: z.string(),
    blockHash: z.string(),
    blockTime: z.string(),
    confirmations: z.number().int(),
    explorerUrl: z.string().nullable(),
    invoiceAmount: z.string().nullable(),
  }),
  refund: z.object({ refundId: z.string(), reason: z.string(), refundReference: z.string() }).nullable(),
});

export const signedReceiptSchema = z.object({
  receipt: receiptPayloadSchema,
  signature: z.object({
    alg: z.literal("Ed25519"),
    keyId: s("the key's id in /.well-known/duebill-receipt-keys.json"),
    value: s("base64url Ed25519 signature of the RFC 8785 canonical encoding of `receipt`"),
  }),
});

export const receiptIdParamsSchema = z.object({ receiptId: z.string().max(64) });
export const paymentIdParamsSchema = z.object({ paymentId: z.string().max(64) });
export const receiptDownloadQuerySchema = z.object({
  download: z.enum(["1", "true"]).optional().meta({ description: "Answer with `Content-Disposition: attachment` (receipt-<id>.json)" }),
});
