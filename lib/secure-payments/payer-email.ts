import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError, notFound } from "@/lib/errors";
import { loadLink } from "@/lib/secure-payments/page-data";

/**
 * `POST /v2/secure-payments/{token}/payer-email`: the email the payer gives on the hosted page for
 * the receipt (lib/mail sends it once the payment is confirmed). Only on an incoming link created
 * with `collectPayerEmail` and only while it can still be paid; giving another replaces it, an empty
 * one removes it. The address is never served back on the public views: the merchant alone reads
 * it (GET /v2/secure-payments?requestId=).
 */
export async function setPayerEmail(token: string, email: string | null): Promise<{ saved: boolean }> {
  const link = await loadLink(token);
  if (link?.sp.direction !== "incoming" || link.multicall) throw notFound("Secure payment not found");
  if (!link.sp.collectPayerEmail) throw new AppError("conflict", "This payment link does not ask for an email");
  if (!env().SMTP_URL) throw new AppError("conflict", "This server sends no email at the moment: no receipt can be emailed");
  if (link.status !== "pending") throw new AppError("conflict", `This payment link is ${link.status.replace("_", " ")}`);
  if (link.requests.length > 0 && link.requests.every((r) => r.status === "paid"))
    throw new AppError("conflict", "This payment link is paid already");
  await db().securePayment.update({ where: { token: link.sp.token }, data: { payerEmail: email } });
  return { saved: email !== null };
}
