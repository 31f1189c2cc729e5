import { networkName } from "@/lib/chain/networks";
import { explorerLink } from "@/lib/chain/stored";
import { log } from "@/lib/log";
import { receiptPageUrl } from "@/lib/receipts/build";
import { findReceipt, receiptForPayment } from "@/lib/receipts/issue";
import { ReceiptKeysUnavailable, receiptKeyRing } from "@/lib/receipts/keys";
import { checkReceiptSignature, type SignatureCheck } from "@/lib/receipts/sign";
import type { SignedReceipt } from "@/lib/receipts/types";

/** What the pages show of receipts: the public receipt page, and the links to it (hosted page, dashboard). */

/** The receipt page of a payment (issued on first call), or null where none can be issued; never throws at a page. */
export async function receiptPageOf(paymentId: string): Promise<string | null> {
  try {
    const issued = await receiptForPayment(paymentId);
    return issued ? receiptPageUrl(issued.id) : null;
  } catch (err) {
    log.warn("no receipt for a page", { paymentId, error: err instanceof Error ? err.message : String(err) });
    return null;
  }
}

/** The receipt pages (relative: the dashboard's own origin) of payments by id, issuing any missing; absent where none can be. */
export async function receiptLinksOfPayments(paymentIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const id of paymentIds) {
    const url = await receiptPageOf(id);
    if (url) out.set(id, new URL(url).pathname);
  }
  return out;
}

export interface ReceiptPageView {
  id: string;
  signed: SignedReceipt;
  /** The server's check of the signature against the published keys, as a payer's verifier would. */
  check: SignatureCheck;
  jsonUrl: string;
  pdfUrl: string;
  /** The transaction on a public explorer, where one knows the chain (the devnet: none). */
  explorerUrl: string | null;
  /** The network as people name it ("Sepolia"). */
  networkName: string;
}

/** The public receipt page's data: the receipt alone (its id is the capability), nothing else of the account. */
export async function receiptPageView(receiptId: string): Promise<ReceiptPageView | null> {
  const found = await findReceipt(receiptId);
  if (!found) return null;
  let check: SignatureCheck;
  try {
    check = checkReceiptSignature(found.signed, receiptKeyRing());
  } catch (err) {
    if (!(err instanceof ReceiptKeysUnavailable)) throw err;
    check = { valid: false, keyId: found.signed.signature.keyId, reason: "the receipt keys are not available on this server" };
  }
  const t = found.signed.receipt.transfer;
  return {
    id: found.id,
    signed: found.signed,
    check,
    jsonUrl: `/v2/receipts/${found.id}?download=1`,
    pdfUrl: `/v2/receipts/${found.id}/pdf`,
    explorerUrl: explorerLink(t.network, t.txHash),
    networkName: networkName(t.network),
  };
}
