import { networkRuntime } from "@/lib/chain/config";
import { FIAT_PATH_DECIMALS } from "@/lib/chain/conversion";
import { publicClientFor } from "@/lib/chain/reader";
import { explorerLink, networkOf, tokenOf } from "@/lib/chain/stored";
import { now } from "@/lib/clock";
import { env } from "@/lib/env";
import type { Invoice, Payment, PaymentRequest, Prisma, Refund } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";
import { RECEIPT_VERSION, type ReceiptInvoiceLine, type ReceiptPayload } from "@/lib/receipts/types";

/**
 * The payload of a receipt, read from the recorded rows (docs/guides/receipts.md "Format"). Pure
 * reads through the caller's transaction client, so detection issues the receipt inside the
 * transaction that records the payment and writes payment.confirmed.
 */
type Tx = Prisma.TransactionClient;

/** The one algorithm Duebill derives payment (and refund) references with (lib/payments/reference.ts). */
export const REFERENCE_ALGORITHM =
  "0x + last 16 hex of keccak256(utf8(lowercase(requestId + salt + paymentAddress))); on chain as the indexed topic keccak256(those 8 bytes)";

const baseUrl = () => env().APP_URL.replace(/\/$/, "");
/** The public JSON of a receipt. */
export const receiptJsonUrl = (id: string) => `${baseUrl()}/v2/receipts/${id}`;
/** The receipt's page (its `issuer.verifyUrl`): shows it and checks the signature. */
export const receiptPageUrl = (id: string) => `${baseUrl()}/receipts/${id}`;

/**
 * Confirmations of a block now: head − block + 1 from the network's RPC when it answers, else from
 * detection's cursor (the last block scanned), never fewer than the depth detection waits for before
 * it records anything (a lower bound then: the receipt says what is known when it is issued).
 */
async function confirmationsOf(tx: Tx, network: string, blockNumber: bigint): Promise<number> {
  const rt = networkRuntime(networkOf({ network }));
  const floor = rt.confirmations + 1;
  const client = publicClientFor(rt.network.id);
  let head: bigint | null = null;
  if (client) head = await client.getBlockNumber({ cacheTime: 0 }).catch(() => null);
  if (head === null) head = (await tx.chainCursor.findUnique({ where: { network } }))?.lastBlock ?? null;
  const counted = head === null ? 0 : Number(head - blockNumber + 1n);
  return Math.max(floor, counted);
}

const str = (v: unknown) => (v === null || v === undefined ? "" : String(v));

function invoiceOf(inv: Invoice | null): ReceiptPayload["request"]["invoice"] {
  if (!inv) return null;
  const lines: ReceiptInvoiceLine[] = (Array.isArray(inv.lines) ? inv.lines : []).map((l) => {
    const line = (l ?? {}) as Record<string, unknown>;
    return {
      description: str(line.description),
      quantity: str(line.quantity),
      unitPrice: str(line.unitPrice),
      taxRate: line.taxRate === null || line.taxRate === undefined ? null : String(line.taxRate),
      net: str(line.net),
      tax: str(line.tax),
      total: str(line.total),
    };
  });
  return {
    number: inv.number,
    issueDate: inv.issueDate.toISOString().slice(0, 10),
    dueDate: inv.dueDate ? inv.dueDate.toISOString().slice(0, 10) : null,
    lines,
    subtotal: inv.subtotal,
    taxTotal: inv.taxTotal,
    total: inv.total,
  };
}

/** The request's invoice: its own, else its secure payment link's. */
async function invoiceFor(tx: Tx, requestId: string): Promise<Invoice | null> {
  const own = await tx.invoice.findUnique({ where: { requestId } });
  if (own) return own;
  const link = await tx.securePaymentRequest.findUnique({ where: { requestId }, select: { securePaymentToken: true } });
  return link ? tx.invoice.findUnique({ where: { securePaymentToken: link.securePaymentToken } }) : null;
}

async function commonOf(tx: Tx, id: string, request: PaymentRequest) {
  const account = await tx.account.findUniqueOrThrow({ where: { id: request.accountId }, select: { name: true } });
  const base = baseUrl();
  return {
    version: RECEIPT_VERSION,
    id,
    issuedAt: now().toISOString(),
    issuer: { name: "Duebill", url: base, verifyUrl: receiptPageUrl(id) },
    merchant: { accountId: request.accountId, name: account.name },
    request: {
      requestId: request.id,
      paymentReference: request.paymentReference,
      reference: request.reference,
      amount: request.amount,
      invoiceCurrency: request.invoiceCurrency,
      paymentCurrency: request.paymentCurrency,
      payee: request.payee,
      payer: request.payer,
      network: request.network,
      feePercentage: request.feePercentage,
      feeAddress: request.feeAddress,
      invoice: invoiceOf(await invoiceFor(tx, request.id)),
    },
  };
}

const units = (d: { toFixed(): string }) => BigInt(d.toFixed());

export async function buildPaymentReceipt(tx: Tx, id: string, payment: Payment, request: PaymentRequest): Promise<ReceiptPayload> {
  const token = tokenOf(request);
  const rt = networkRuntime(networkOf(request));
  return {
    ...(await commonOf(tx, id, request)),
    kind: "payment",
    referenceDerivation: {
      algorithm: REFERENCE_ALGORITHM,
      inputs: { requestId: request.id, salt: request.salt, paymentAddress: request.payee },
      paymentReference: request.paymentReference,
    },
    transfer: {
      network: payment.network,
      chainId: rt.network.chainId,
      token: { address: payment.tokenAddress, symbol: token.symbol, decimals: token.decimals },
      amount: units(payment.amount).toString(),
      amountDecimal: formatAmount(units(payment.amount), token.decimals),
      feeAmount: units(payment.feeAmount).toString(),
      feeAmountDecimal: formatAmount(units(payment.feeAmount), token.decimals),
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
      confirmations: await confirmationsOf(tx, payment.network, payment.blockNumber),
      explorerUrl: explorerLink(payment.network, payment.txHash),
      invoiceAmount: payment.invoiceAmount ? formatAmount(units(payment.invoiceAmount), FIAT_PATH_DECIMALS) : null,
    },
    refund: null,
  };
}

/** A confirmed refund's receipt: the refund transfer (payee → payer, through the fee proxy, under the refund reference). */
export async function buildRefundReceipt(
  tx: Tx,
  id: string,
  refund: Refund & { txHash: string; logIndex: number; blockNumber: bigint; blockHash: string },
  request: PaymentRequest,
  emitter: string | null,
): Promise<ReceiptPayload> {
  const token = tokenOf(request);
  const rt = networkRuntime(networkOf(request));
  const amount = units(refund.amount);
  return {
    ...(await commonOf(tx, id, request)),
    kind: "refund",
    referenceDerivation: {
      algorithm: REFERENCE_ALGORITHM,
      inputs: { requestId: request.id, salt: request.salt, paymentAddress: refund.toAddress },
      paymentReference: refund.refundReference,
    },
    transfer: {
      network: refund.network,
      chainId: rt.network.chainId,
      token: { address: refund.tokenAddress, symbol: token.symbol, decimals: token.decimals },
      amount: amount.toString(),
      amountDecimal: formatAmount(amount, token.decimals),
      feeAmount: "0",
      feeAmountDecimal: "0",
      feeAddress: null,
      from: null,
      to: refund.toAddress,
      emitter: emitter ?? rt.contracts.erc20FeeProxy,
      event: "TransferWithReferenceAndFee",
      txHash: refund.txHash,
      logIndex: refund.logIndex,
      blockNumber: refund.blockNumber.toString(),
      blockHash: refund.blockHash,
      blockTime: (refund.blockTime ?? refund.confirmedAt ?? refund.createdAt).toISOString(),
      confirmations: await confirmationsOf(tx, refund.network, refund.blockNumber),
      explorerUrl: explorerLink(refund.network, refund.txHash),
      invoiceAmount: null,
    },
    refund: { refundId: refund.id, reason: refund.reason, refundReference: refund.refundReference },
  };
}
