/** Invoices with line items and tax (#30): what the API returns and the documents print. */

export interface InvoiceLineInput {
  description: string;
  /** Decimal string or number, > 0 ("2", "1.5"). */
  quantity: string | number;
  /** Decimal string in the invoice currency. */
  unitPrice: string;
  /** Percent ("20" = 20 %), or absent / null for no tax. */
  taxRate?: string | null;
}

export interface InvoiceLineView {
  description: string;
  quantity: string;
  unitPrice: string;
  taxRate: string | null;
  /** quantity × unitPrice. */
  net: string;
  tax: string;
  /** net + tax. */
  total: string;
}

export interface InvoiceTaxView {
  rate: string;
  base: string;
  tax: string;
}

export interface InvoiceView {
  id: string;
  number: string;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  customer: {
    firstName?: string;
    lastName?: string;
    email?: string;
    address?: { street?: string; city?: string; state?: string; postalCode?: string; country?: string };
  } | null;
  notes: string | null;
  lines: InvoiceLineView[];
  /** One row per tax rate: the base it applies to and the tax. */
  taxes: InvoiceTaxView[];
  subtotal: string;
  taxTotal: string;
  total: string;
}
