import { invalidField } from "@/lib/api/errors";
import type { Principal } from "@/lib/auth/authenticate";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { requestData } from "@/lib/requests/create-request";
import { type PaymentPlan, planSinglePayment } from "@/lib/requests/plan-payment";
import { parseAddressFor, resolveTerms } from "@/lib/requests/terms";
import type { CreatePayoutBody } from "./schemas";

/**
 * POST /v2/payouts (one-off): stores the request and returns the payer's transactions.
 * The chain is read (allowance, balances) before anything is written, so an RPC failure
 * leaves no orphan request behind.
 */
export async function createPayout(principal: Principal, body: CreatePayoutBody): Promise<{ requestId: string; paymentReference: string } & PaymentPlan> {
  if (body.recurrence) throw invalidField("recurrence", "recurring payouts are not available yet");
  const terms = resolveTerms(body);
  const walletInput = body.payerWallet ?? body.payerAddress;
  const walletField = body.payerWallet !== undefined ? "payerWallet" : "payerAddress";
  const wallet = walletInput === undefined ? undefined : parseAddressFor(terms.network, walletInput, walletField);
  const data = requestData(principal, "payout", terms, { payer: wallet, reference: body.reference, customerInfo: body.customerInfo });
  const plan = await planSinglePayment(
    {
      network: terms.network,
      tokenAddress: terms.token.address,
      payee: terms.payee,
      amount: terms.expectedAmount,
      feeAmount: terms.feeAmount,
      feeAddress: terms.feeAddress,
      paymentReference: data.paymentReference as `0x${string}`,
      approveResetRequired: terms.token.approveResetRequired ?? false,
    },
    wallet,
  );
  await db().paymentRequest.create({ data: data as Prisma.PaymentRequestUncheckedCreateInput });
  return { requestId: data.id, paymentReference: data.paymentReference, ...plan };
}
