import { tokenOf } from "@/lib/chain/stored";
import type { CommercePayment, PaymentRequest } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";
import { paymentInfoToJson } from "./payment-info";
import { amountsOf, capturableOf } from "./state";
import { infoOf } from "./store";

/**
 * A commerce payment as the API shows it: status, amounts (decimal strings in the payment currency) and
 * deadlines. `reclaimableAmount` is what the payer may take back now (the capture deadline passed);
 * before the deadline the same money is `capturableAmount`.
 */
export function commerceView(request: PaymentRequest, cp: CommercePayment, nowSeconds = Math.floor(Date.now() / 1000)) {
  const token = tokenOf(request);
  const fmt = (u: bigint) => formatAmount(u, token.decimals);
  const a = amountsOf(cp);
  const held = capturableOf(a);
  const expiry = Math.floor(cp.authorizationExpiry.getTime() / 1000);
  const expired = nowSeconds >= expiry;
  return {
    requestId: request.id,
    commercePaymentId: cp.id,
    paymentId: cp.paymentId,
    status: cp.status,
    method: cp.method,
    network: cp.network,
    currency: request.paymentCurrency,
    escrowAddress: cp.escrowAddress,
    payerAddress: cp.payer,
    payee: request.payee,
    operatorWalletAddress: cp.operator,
    paymentReference: request.paymentReference,
    authorizedAmount: fmt(a.authorized),
    capturedAmount: fmt(a.captured),
    capturedFeeAmount: fmt(a.fee),
    capturableAmount: fmt(expired ? 0n : held),
    voidedAmount: fmt(a.voided),
    reclaimedAmount: fmt(a.reclaimed),
    reclaimableAmount: fmt(expired ? held : 0n),
    refundedAmount: fmt(a.refunded),
    refundableAmount: fmt(a.captured - a.refunded),
    preApprovalExpiry: cp.preApprovalExpiry.toISOString(),
    authorizationExpiry: cp.authorizationExpiry.toISOString(),
    captureDeadlinePassed: expired,
    paymentInfo: paymentInfoToJson(infoOf(cp)),
  };
}
