import type { InvoiceView } from "@/lib/invoices/types";
import { RECEIPT_VERSION, type SignedReceipt } from "@/lib/receipts/types";

/** Hand-built documents for the renderers (no database, no chain): values a real payment could have. */

export const TX_HASH = "0x9f2c4b7e1d3a5f6081b2c3d4e5f60718293a4b5c6d7e8f9012a3b4c5d6e7f801";
export const VERIFY_URL = "https://pay.duebill.example/receipts/rcp_01JH3Q8Z6X9V2M4N7P5R8T1W3Y";
export const MERCHANT = "Café Zürich Ωmega Ж";

export function receiptFixture(overrides: { kind?: "payment" | "refund"; withInvoice?: boolean } = {}): SignedReceipt {
  const refund = overrides.kind === "refund";
  return {
    receipt: {
      version: RECEIPT_VERSION,
      id: "rcp_01JH3Q8Z6X9V2M4N7P5R8T1W3Y",
      kind: refund ? "refund" : "payment",
      issuedAt: "2026-11-27T09:14:02.000Z",
      issuer: { name: "Duebill", url: "https://pay.duebill.example", verifyUrl: VERIFY_URL },
      merchant: { accountId: "acc_01JH3Q8Z6X9V2M4N7P5R8T1W3Y", name: MERCHANT },
      request: {
        requestId: "01a3f5c7e9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9d1f3a5",
        paymentReference: "0x4a6f8e2c1b3d5e7f",
        reference: "ORDER-2026-0042",
        amount: "125.5",
        invoiceCurrency: "EUR",
        paymentCurrency: "USDC-base",
        payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
        payer: "0x1B7e0a2C3d4E5f60718293a4B5c6D7e8F9012A3b",
        network: "base",
        feePercentage: "1",
        feeAddress: "0x35d0e078755Cd84D3E0656cAaB417Dee1d7939c7",
        invoice: overrides.withInvoice
          ? {
              number: "INV-000042",
              issueDate: "2026-11-20T00:00:00.000Z",
              dueDate: "2026-12-20T00:00:00.000Z",
              lines: [
                {
                  description: "Espresso beans, 1 kg",
                  quantity: "2",
                  unitPrice: "30",
                  taxRate: "5.5",
                  net: "60",
                  tax: "3.3",
                  total: "63.3",
                },
                { description: "Barista course", quantity: "1", unitPrice: "50", taxRate: "20", net: "50", tax: "10", total: "60" },
                { description: "Delivery", quantity: "1", unitPrice: "2.2", taxRate: null, net: "2.2", tax: "0", total: "2.2" },
              ],
              subtotal: "112.2",
              taxTotal: "13.3",
              total: "125.5",
            }
          : null,
      },
      referenceDerivation: {
        algorithm: "last8(keccak256(requestId || salt || payee))",
        inputs: { requestId: "01a3…", salt: "a1b2c3d4e5f60718", payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7" },
        paymentReference: "0x4a6f8e2c1b3d5e7f",
      },
      transfer: {
        network: "base",
        chainId: 8453,
        token: { address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", symbol: "USDC", decimals: 6 },
        amount: "136250000",
        amountDecimal: "136.25",
        feeAmount: "1362500",
        feeAmountDecimal: "1.3625",
        feeAddress: "0x35d0e078755Cd84D3E0656cAaB417Dee1d7939c7",
        from: "0x1B7e0a2C3d4E5f60718293a4B5c6D7e8F9012A3b",
        to: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
        emitter: "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814",
        event: "TransferWithConversionAndReference",
        txHash: TX_HASH,
        logIndex: 7,
        blockNumber: "23456789",
        blockHash: "0x5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d",
        blockTime: "2026-11-27T09:12:33.000Z",
        confirmations: 12,
        explorerUrl: `https://basescan.org/tx/${TX_HASH}`,
        invoiceAmount: "125.5",
      },
      refund: refund
        ? { refundId: "rfd_01JH3Q8Z6X9V2M4N7P5R8T1W3Z", reason: "Customer returned the beans", refundReference: "0x7c1d2e3f4a5b6c7d" }
        : null,
    },
    signature: { alg: "Ed25519", keyId: "rk_2026-11", value: "c2lnbmF0dXJl" },
  };
}

export function invoiceFixture(lineCount = 3): InvoiceView {
  const three = [
    {
      description: "Espresso beans, single origin Ethiopia Yirgacheffe, 1 kg bag",
      quantity: "2",
      unitPrice: "30.00",
      taxRate: "5.5",
      net: "60.00",
      tax: "3.30",
      total: "63.30",
    },
    {
      description: "Barista course (half day)",
      quantity: "1",
      unitPrice: "50.00",
      taxRate: "20",
      net: "50.00",
      tax: "10.00",
      total: "60.00",
    },
    { description: "Cleaning tablets", quantity: "3", unitPrice: "4.00", taxRate: "20", net: "12.00", tax: "2.40", total: "14.40" },
  ];
  const lines =
    lineCount === 3
      ? three
      : Array.from({ length: lineCount }, (_, i) => ({
          description: `Line item number ${i + 1}${i % 7 === 3 ? " with a longer description that wraps onto a second line in the table" : ""}`,
          quantity: "1",
          unitPrice: "10.00",
          taxRate: i % 2 === 0 ? "20" : null,
          net: "10.00",
          tax: i % 2 === 0 ? "2.00" : "0.00",
          total: i % 2 === 0 ? "12.00" : "10.00",
        }));
  const taxed = lines.filter((l) => l.taxRate !== null);
  return lineCount === 3
    ? {
        id: "inv_01JH3Q8Z6X9V2M4N7P5R8T1W3Y",
        number: "INV-000042",
        issueDate: "2026-11-20T00:00:00.000Z",
        dueDate: "2026-12-20T00:00:00.000Z",
        currency: "EUR",
        customer: {
          firstName: "Ada",
          lastName: "Lovelace",
          email: "ada@example.com",
          address: { street: "12 Analytical Engine Street", city: "London", postalCode: "NW1 6XE", country: "GB" },
        },
        notes: "Thank you for your order. Payment in USDC on Base; questions: billing@cafe.example",
        lines: three,
        taxes: [
          { rate: "5.5", base: "60.00", tax: "3.30" },
          { rate: "20", base: "62.00", tax: "12.40" },
        ],
        subtotal: "122.00",
        taxTotal: "15.70",
        total: "137.70",
      }
    : {
        id: "inv_01JH3Q8Z6X9V2M4N7P5R8T1W40",
        number: "INV-000060",
        issueDate: "2026-11-20T00:00:00.000Z",
        dueDate: null,
        currency: "USD",
        customer: null,
        notes: null,
        lines,
        taxes: [{ rate: "20", base: `${taxed.length * 10}.00`, tax: `${taxed.length * 2}.00` }],
        subtotal: `${lineCount * 10}.00`,
        taxTotal: `${taxed.length * 2}.00`,
        total: `${lineCount * 10 + taxed.length * 2}.00`,
      };
}
