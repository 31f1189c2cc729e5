import { z } from "zod";
import type { InvoiceView } from "@/lib/invoices/types";

/** The request's customer (customerInfo), which is also the invoice's customer. */
export const customerInfoSchema = z.strictObject({
  firstName: z.string().min(1).max(100).optional(),
  lastName: z.string().min(1).max(100).optional(),
  email: z.string().email().max(255).optional(),
  address: z
    .strictObject({
      street: z.string().max(255).optional(),
      city: z.string().max(100).optional(),
      state: z.string().max(100).optional(),
      postalCode: z.string().max(20).optional(),
      country: z.string().length(2).optional(),
    })
    .optional(),
});

const day = z.string().max(10).meta({ description: "Calendar date YYYY-MM-DD", example: "2026-12-01" });

/** One line of `invoice.lines` (lib/invoices/compute.ts checks the decimals; docs/guides/invoices.md). */
export const invoiceLineInputSchema = z.strictObject({
  description: z.string().min(1).max(500).meta({ example: "Consulting, November" }),
  quantity: z
    .union([z.string().max(26), z.number()])
    .meta({ description: "Greater than 0, at most 6 decimals; a decimal string (or a JSON number)", example: "2" }),
  unitPrice: z.string().max(40).meta({
    description:
      "Price of one unit in the invoice currency, 0 or more (decimal string); it may be finer than the currency as long as quantity × unitPrice is a whole number of its smallest unit",
    example: "50.00",
  }),
  taxRate: z
    .string()
    .max(12)
    .nullable()
    .optional()
    .meta({ description: 'Percent, 0 to 100, at most 4 decimals ("20", "7.25"); absent or null: no tax on this line', example: "20" }),
});

export const invoiceInputSchema = z
  .strictObject({
    number: z.string().max(64).optional().meta({
      description:
        "Your invoice number (1–64 letters, digits, . _ / # -), unique in the account (409 otherwise); absent: the account's next, INV-000001 style",
      example: "INV-2026-0042",
    }),
    issueDate: day.optional().meta({ description: "Default: today (UTC)" }),
    dueDate: day.optional().meta({ description: "On or after issueDate" }),
    notes: z.string().max(2000).optional().meta({ description: "Printed under the lines (payment terms, a thank-you)" }),
    lines: z.array(invoiceLineInputSchema).min(1).max(100),
  })
  .meta({
    id: "InvoiceInput",
    description:
      "Duebill extension: an invoice for this payment. Server-side, exactly: net = quantity × unitPrice, tax = net × taxRate / 100 " +
      "rounded half up per line to the currency's smallest unit, total = Σ net + Σ tax. The amount must equal that total " +
      "(400 naming the field and the line otherwise). docs/guides/invoices.md",
  });

const money = (description: string) => z.string().meta({ description, example: "107.10" });

export const invoiceViewSchema = z
  .object({
    id: z.string(),
    number: z.string().meta({ example: "INV-000042" }),
    issueDate: z.string().meta({ example: "2026-11-29" }),
    dueDate: z.string().nullable(),
    currency: z.string().meta({ description: "The invoice currency (the request's invoiceCurrency; a link's token)", example: "USD" }),
    customer: customerInfoSchema.partial().nullable().meta({ description: "The request's customerInfo at issue" }),
    notes: z.string().nullable(),
    lines: z.array(
      z.object({
        description: z.string(),
        quantity: z.string(),
        unitPrice: z.string(),
        taxRate: z.string().nullable(),
        net: money("quantity × unitPrice"),
        tax: money("net × taxRate / 100, rounded half up to the currency's smallest unit"),
        total: money("net + tax"),
      }),
    ),
    taxes: z
      .array(z.object({ rate: z.string(), base: money("Σ net of the lines at this rate"), tax: money("Σ tax of those lines") }))
      .meta({ description: "One row per tax rate, lowest first (lines without a rate are in none)" }),
    subtotal: money("Σ net"),
    taxTotal: money("Σ tax"),
    total: money("subtotal + taxTotal: the amount"),
  })
  .meta({ id: "Invoice" });

// The served type and the documented schema stay one shape.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same: Same<z.infer<typeof invoiceViewSchema>["lines"], InvoiceView["lines"]> = true;
void same;
