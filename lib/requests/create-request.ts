import type { Principal } from "@/lib/auth/principal";
import { parseAddressFor } from "@/lib/chain/address";
import { conversionRoute } from "@/lib/chain/rate-source";
import { db } from "@/lib/db";
import { invalidField } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { RequestKind } from "@/lib/generated/prisma/enums";
import { currencyDecimals, type InvoiceInput, prepareInvoice } from "@/lib/invoices/prepare";
import { storeInvoice } from "@/lib/invoices/store";
import { parseAmount } from "@/lib/money";
import { computePaymentReference, computeRequestId, randomSalt, referenceTopic } from "@/lib/payments/reference";
import { type PaymentTerms, resolveTerms } from "@/lib/payments/terms";

export interface RequestExtras {
  payer?: string;
  reference?: string;
  customerInfo?: Prisma.InputJsonValue;
  batchId?: string;
}

/** Owner of new requests: the account behind the credential, and the client ID when one was used. */
export function ownerOf(principal: Principal): { accountId: string; clientId: string | null } {
  return { accountId: principal.accountId, clientId: principal.kind === "clientId" ? principal.clientId : null };
}

/** A new request row, usable by create and createMany alike. */
export type RequestRow = Prisma.PaymentRequestCreateManyInput & Prisma.PaymentRequestUncheckedCreateInput;

export function requestData(principal: Principal, kind: RequestKind, terms: PaymentTerms, extras: RequestExtras): RequestRow {
  const salt = randomSalt();
  const { accountId, clientId } = ownerOf(principal);
  const createdAt = new Date();
  const id = computeRequestId({
    accountId,
    network: terms.network,
    token: terms.token.address,
    payee: terms.payee,
    amount: terms.expectedAmount.toString(),
    salt,
    createdAt: createdAt.toISOString(),
  });
  // The payment address in the reference is the payee: the protocol's convention for ERC-20 fee proxy requests.
  const paymentReference = computePaymentReference(id, salt, terms.payee);
  return {
    id,
    accountId,
    clientId,
    kind,
    network: terms.network,
    invoiceCurrency: terms.invoiceCurrency,
    paymentCurrency: terms.paymentCurrency,
    tokenAddress: terms.token.address,
    amount: terms.amount,
    expectedAmount: terms.expectedAmount.toString(),
    payee: terms.payee,
    payer: extras.payer ?? null,
    salt,
    paymentReference,
    referenceHash: referenceTopic(paymentReference),
    feePercentage: terms.feePercentage,
    feeAddress: terms.feeAddress,
    feeAmount: terms.feeAmount.toString(),
    isConversion: terms.isConversion,
    reference: extras.reference ?? null,
    customerInfo: extras.customerInfo,
    batchId: extras.batchId ?? null,
    createdAt,
  };
}

/** POST /v2/request. */
/** A type, not an interface, so it stays assignable to a JSON column. */
export type CustomerInfo = {
  firstName?: string;
  lastName?: string;
  email?: string;
  address?: { street?: string; city?: string; state?: string; postalCode?: string; country?: string };
};

/** The terms of a new request: decimal strings and addresses as given, validated here. */
export interface CreateRequestInput {
  amount: string;
  invoiceCurrency: string;
  paymentCurrency: string;
  feePercentage?: string;
  feeAddress?: string;
  payee?: string;
  payer?: string;
  reference?: string;
  customerInfo?: CustomerInfo;
  recurrence?: { startDate: string; frequency: string };
  isCryptoToFiatAvailable?: boolean;
  /** An invoice whose computed total must be `amount` (lib/invoices; docs/guides/invoices.md). */
  invoice?: InvoiceInput;
}

export async function createRequest(
  principal: Principal,
  body: CreateRequestInput,
): Promise<{ requestId: string; paymentReference: string }> {
  // With `recurrence` the request is period 1 of a series: createRecurringRequest (lib/recurring/request-recurrence.ts) stores both.
  if (body.recurrence) throw new Error("createRequest makes no recurring request: call createRecurringRequest");
  const data = await prepareRequest(principal, body);
  const invoice = body.invoice && prepareRequestInvoice(body.invoice, data, body.customerInfo);
  // One transaction: the request, its invoice and the invoice number (a refused create takes no number).
  await db().$transaction(async (tx) => {
    await tx.paymentRequest.create({ data });
    if (invoice) await storeInvoice(invoice, { accountId: data.accountId, requestId: data.id }, tx);
  });
  return { requestId: data.id, paymentReference: data.paymentReference };
}

/** The request's invoice, in its invoice currency: its total must be the request's `amount` (400 naming `amount` and the line). */
function prepareRequestInvoice(input: InvoiceInput, data: RequestRow, customer: CustomerInfo | undefined) {
  const decimals = currencyDecimals(data.invoiceCurrency) ?? 0;
  return prepareInvoice(input, {
    currency: data.invoiceCurrency,
    amountUnits: parseAmount(data.amount, decimals, "amount"),
    amountField: "amount",
    customer: customer ?? null,
  });
}

/** The row of POST /v2/request, validated (400 naming the field at fault) and not yet stored; `recurrence` aside. */
export async function prepareRequest(principal: Principal, body: CreateRequestInput): Promise<RequestRow> {
  if (body.isCryptoToFiatAvailable) throw invalidField("isCryptoToFiatAvailable", "crypto-to-fiat payments are not available");
  const terms = resolveTerms(body, "", { conversion: true });
  if (terms.isConversion) {
    // The configuration allows it; the chain must have a feed path too (checked when an RPC is configured).
    const { path, where } = await conversionRoute(terms.runtime, terms.invoiceCurrency, terms.token);
    if (path === null)
      throw invalidField(
        "paymentCurrency",
        `${terms.paymentCurrency} cannot pay ${terms.invoiceCurrency} invoices: no ${terms.invoiceCurrency} price feed path to ${terms.token.symbol} on ${where}`,
      );
  }
  const payer = body.payer === undefined ? undefined : parseAddressFor(terms.network, body.payer, "payer");
  return requestData(principal, "request", terms, { payer, reference: body.reference, customerInfo: body.customerInfo });
}
