import type { Principal } from "@/lib/auth/principal";
import { asHex } from "@/lib/chain/address";
import { db } from "@/lib/db";
import { type PaymentPlan, planSinglePayment } from "@/lib/payments/plan";
import { resolveTerms } from "@/lib/payments/terms";
import { createRecurringPayout } from "@/lib/recurring/create";
import { type CustomerInfo, requestData } from "@/lib/requests/create-request";

/**
 * POST /v2/payouts (one-off): stores the request and returns the payer's transactions.
 * The chain is read (allowance, balances) before anything is written, so an RPC failure
 * leaves no orphan request behind.
 */
export interface CreatePayoutInput {
  payee: string;
  amount: string;
  invoiceCurrency: string;
  paymentCurrency: string;
  feePercentage?: string;
  feeAddress?: string;
  payerWallet?: string;
  payerAddress?: string;
  recurrence?: { startDate: string; frequency: string; totalPayments: number; payer: string };
  customerInfo?: CustomerInfo;
  reference?: string;
}

export async function createPayout(principal: Principal, body: CreatePayoutInput) {
  if (body.recurrence) return createRecurringPayout(principal, { ...body, recurrence: body.recurrence });
  return createOneOffPayout(principal, body);
}

async function createOneOffPayout(
  principal: Principal,
  body: CreatePayoutInput,
): Promise<{ requestId: string; paymentReference: string } & PaymentPlan> {
  // Resolved once (network runtime, token, amounts, fee, payee and payer) and handed down to the row and the plan.
  const walletInput = body.payerWallet ?? body.payerAddress;
  const payer =
    walletInput === undefined
      ? undefined
      : { address: walletInput, field: body.payerWallet !== undefined ? "payerWallet" : "payerAddress" };
  const terms = resolveTerms(body, "", { payer });
  const data = requestData(principal, "payout", terms, { payer: terms.payer, reference: body.reference, customerInfo: body.customerInfo });
  const plan = await planSinglePayment(
    {
      runtime: terms.runtime,
      tokenAddress: terms.token.address,
      payee: terms.payee,
      amount: terms.expectedAmount,
      feeAmount: terms.feeAmount,
      feeAddress: terms.feeAddress,
      paymentReference: asHex(data.paymentReference),
      approveResetRequired: terms.token.approveResetRequired ?? false,
    },
    terms.payer,
  );
  // Only the id back: the row is ours already; otherwise Prisma reads back and materialises every column.
  await db().paymentRequest.create({ data, select: { id: true } });
  return { requestId: data.id, paymentReference: data.paymentReference, ...plan };
}
