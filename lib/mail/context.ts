import { explorerLink, storedTermsOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { PaymentFacts } from "@/lib/mail/templates";
import { formatAmount } from "@/lib/money";
import { brandOf } from "@/lib/secure-payments/get-secure-payment";

type Client = Prisma.TransactionClient | ReturnType<typeof db>;

/**
 * What an email about a payment says, read from its rows: the payment, its request, the incoming link
 * it paid (emails are sent for secure payment links only) and the account. Null when the payment is
 * gone or was not made through an incoming link.
 */
export async function paymentMailContext(paymentId: string, client: Client = db()) {
  const payment = await client.payment.findUnique({
    where: { id: paymentId },
    include: { request: { include: { account: { select: { name: true, logoUrl: true } } } } },
  });
  if (!payment) return null;
  const link = await client.securePaymentRequest.findUnique({
    where: { requestId: payment.requestId },
    select: {
      securePayment: {
        select: { token: true, direction: true, branding: true, collectPayerEmail: true, payerEmail: true, description: true },
      },
    },
  });
  const sp = link?.securePayment;
  if (sp?.direction !== "incoming") return null;
  const request = payment.request;
  const { runtime, token } = storedTermsOf(request);
  const brand = brandOf(sp);
  const merchant = brand?.displayName ?? (request.account.name.trim() || "the merchant");
  const base = env().APP_URL.replace(/\/$/, "");
  const facts: Omit<PaymentFacts, "receiptUrl"> = {
    merchant,
    amount: formatAmount(BigInt(payment.amount.toFixed()), token.decimals),
    symbol: token.symbol,
    networkName: runtime.network.name,
    reference: request.reference,
    description: sp.description,
    payer: payment.payer,
    txHash: payment.txHash,
    explorerUrl: explorerLink(request.network, payment.txHash),
    paidAt: `${payment.blockTime.toISOString().slice(0, 19).replace("T", " ")} UTC`,
  };
  return {
    payment,
    accountId: request.accountId,
    link: sp,
    facts,
    brand: { name: merchant, accentColor: brand?.accentColor ?? undefined },
    linkUrl: `${base}/pay/${sp.token}`,
    dashboardUrl: `${base}/dashboard/payments`,
  };
}

/**
 * Who hears of a payment to an account: the account's users who sign in with an email (the only
 * addresses Duebill knows for it; wallet-only users have none), lowercased, once each.
 */
export async function payeeAddresses(accountId: string, client: Client = db()): Promise<string[]> {
  const users = await client.user.findMany({
    where: { accountId, email: { not: null } },
    select: { email: true },
    orderBy: { createdAt: "asc" },
  });
  return [...new Set(users.map((u) => u.email!.trim().toLowerCase()).filter((e) => e.includes("@")))];
}
