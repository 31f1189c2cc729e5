import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import type { CommercePayment } from "@/lib/generated/prisma/client";
import { getRequestOrThrow } from "@/lib/requests/get-request";
import { type PaymentInfo, paymentInfoFromJson, type paymentInfoToJson } from "./payment-info";

/** The account's request and its commerce payment: 404 for another account's request or one never authorized here. */
export async function commercePaymentOrThrow(accountId: string, requestId: string) {
  const request = await getRequestOrThrow(accountId, requestId);
  const cp = await db().commercePayment.findFirst({ where: { requestId: request.id, accountId } });
  if (!cp) throw notFound("No commerce payment for this request (POST /v2/commerce-payments/authorize/calldata first)");
  return { request, cp };
}

export function infoOf(cp: CommercePayment): PaymentInfo {
  return paymentInfoFromJson(cp.info as ReturnType<typeof paymentInfoToJson>);
}
