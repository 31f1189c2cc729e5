// PLACEHOLDER for the mail lane: replaced at merge by the rcpt/pdf lanes' file.

import { NETWORKS } from "@/lib/chain/networks";
import { explorerLink, tokenOf } from "@/lib/chain/stored";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { formatAmount } from "@/lib/money";
import { RECEIPT_VERSION, type SignedReceipt } from "@/lib/receipts/types";

/**
 * The receipt of a recorded payment, built from its rows. This stand-in signs nothing (signature value "")
 * and stores nothing: the rcpt lane's version signs with the published key and stores the Receipt row.
 */
export async function receiptForPayment(paymentId: string): Promise<{ id: string; signed: SignedReceipt } | null> {
  const payment = await db().payment.findUnique({ where: { id: paymentId }, include: { request: { include: { account: true } } } });
  if (!payment) return null;
  const r = payment.request;
  const token = tokenOf(r);
  const id = `rcp_${payment.id.toLowerCase()}`;
  const base = env().APP_URL.replace(/\/$/, "");
  const amount = BigInt(payment.amount.toFixed());
  const fee = BigInt(payment.feeAmount.toFixed());
  const network = r.network as keyof typeof NETWORKS;
  return {
    id,
    signed: {
      receipt: {
        version: RECEIPT_VERSION,
        id,
        kind: "payment",
        issuedAt: now().toISOString(),
        issuer: { name: "Duebill", url: base, verifyUrl: `${base}/receipts/${id}` },
        merchant: { accountId: r.accountId, name: r.account.name },
        request: {
          requestId: r.id,
          paymentReference: r.paymentReference,
          reference: r.reference,
          amount: r.amount.toString(),
          invoiceCurrency: r.invoiceCurrency,
          paymentCurrency: r.paymentCurrency,
          payee: r.payee,
          payer: payment.payer,
          network: r.network,
          feePercentage: null,
          feeAddress: payment.feeAddress,
          invoice: null,
        },
        referenceDerivation: { algorithm: "placeholder", inputs: {}, paymentReference: r.paymentReference },
        transfer: {
          network: r.network,
          chainId: NETWORKS[network]?.chainId ?? null,
          token: { address: payment.tokenAddress, symbol: token.symbol, decimals: token.decimals },
          amount: amount.toString(),
          amountDecimal: formatAmount(amount, token.decimals),
          feeAmount: fee.toString(),
          feeAmountDecimal: formatAmount(fee, token.decimals),
          feeAddress: payment.feeAddress,
          from: payment.payer,
          to: payment.payee,
          emitter: payment.proxyAddress,
          event: "TransferWithReferenceAndFee",
          txHash: payment.txHash,
          logIndex: payment.logIndex,
          blockNumber: payment.blockNumber.toString(),
          blockHash: payment.blockHash,
          blockTime: payment.blockTime.toISOString(),
          confirmations: 0,
          explorerUrl: explorerLink(r.network, payment.txHash),
          invoiceAmount: null,
        },
        refund: null,
      },
      signature: { alg: "Ed25519", keyId: "placeholder", value: "" },
    },
  };
}
