import { networkName } from "@/lib/chain/networks";
import { header, pill, qrCode, type RowOptions, rows, section } from "@/lib/documents/blocks";
import { FONT } from "@/lib/documents/fonts";
import { amountText, dateOnly, dateTime, groupDecimal, money, sameDecimal, symbolOf } from "@/lib/documents/format";
import { linesTable, totals } from "@/lib/documents/lines-table";
import { COLOR, type DocumentBrand, LINK, Sheet } from "@/lib/documents/pdf-doc";
import type { SignedReceipt } from "@/lib/receipts/types";

export type { DocumentBrand } from "@/lib/documents/pdf-doc";

/**
 * The PDF of a signed receipt (#30): what was paid, when, between whom, the transfer as it is on
 * chain (tx hash linked to the explorer, block, log index, confirmations, the fee leg), the request
 * it settled (its references and invoice lines), and how to check it: the signature's key ID and a
 * QR code of the receipt's verification URL. It prints the signed payload as it stands and adds
 * nothing a verifier could not see in the JSON.
 */
export async function renderReceiptPdf(signed: SignedReceipt, brand: DocumentBrand): Promise<Buffer> {
  const { receipt } = signed;
  const t = receipt.transfer;
  const r = receipt.request;
  const refund = receipt.kind === "refund" ? receipt.refund : null;
  const s = new Sheet({
    title: `${refund ? "Refund receipt" : "Receipt"} ${receipt.id}`,
    author: brand.name,
    subject: `${refund ? "Refund" : "Payment"} of ${t.amountDecimal} ${t.token.symbol}, transaction ${t.txHash}`,
  });
  header(s, brand, refund ? "Refund receipt" : "Receipt", receipt.id);

  hero(s, signed, Boolean(refund));
  parties(s, receipt.merchant.name, t.to, t.from ?? r.payer, Boolean(refund));

  if (refund) {
    section(s, "Refund");
    rows(s, [
      ["Refund ID", refund.refundId, { mono: true }],
      ["Refund reference", refund.refundReference, { mono: true }],
      ["Reason", refund.reason],
    ]);
    s.y += 10;
  }

  section(s, refund ? "Refund transfer" : "Payment");
  const mono: RowOptions = { mono: true };
  const fee =
    t.feeAmount !== "0" ? `${groupDecimal(t.feeAmountDecimal)} ${t.token.symbol}${t.feeAddress ? ` to ${t.feeAddress}` : ""}` : "None";
  rows(s, [
    ["Network", `${networkName(t.network)}${t.chainId !== null ? ` (chain ID ${t.chainId})` : ""}`],
    ["Token", `${t.token.symbol} · ${t.token.address}`, mono],
    ["Amount", `${groupDecimal(t.amountDecimal)} ${t.token.symbol}`],
    ["Fee", fee, t.feeAmount !== "0" ? mono : {}],
    ["Transaction hash", t.txHash, { mono: true, link: t.explorerUrl }],
    ["Explorer", t.explorerUrl, { link: t.explorerUrl }],
    ["Block", `${t.blockNumber}`],
    ["Block hash", t.blockHash, mono],
    ["Log index", String(t.logIndex)],
    ["Confirmations", `${t.confirmations} when issued`],
    ["Contract", `${t.emitter} (${t.event})`, mono],
  ]);
  s.y += 10;

  section(s, "Request");
  rows(s, [
    ["Request ID", r.requestId, mono],
    ["Payment reference", r.paymentReference, mono],
    ["Your reference", r.reference],
    ["Requested", money(r.amount, r.invoiceCurrency)],
    ["Invoice", r.invoice ? `${r.invoice.number} · issued ${dateOnly(r.invoice.issueDate)}` : null],
  ]);
  s.y += 10;

  if (r.invoice && r.invoice.lines.length > 0) {
    section(s, `Invoice ${r.invoice.number}`);
    const invoiceSymbol = symbolOf(r.invoiceCurrency);
    linesTable(s, r.invoice.lines, invoiceSymbol, `Invoice ${r.invoice.number} (continued)`);
    totals(s, [
      { label: "Subtotal", value: amountText(r.invoice.subtotal) },
      { label: "Tax", value: amountText(r.invoice.taxTotal) },
      { label: `Total (${invoiceSymbol})`, value: amountText(r.invoice.total), strong: true },
    ]);
    s.y += 10;
  }

  verification(s, signed);
  s.footer(`${brand.name} · ${refund ? "Refund receipt" : "Receipt"} ${receipt.id} · issued ${dateOnly(receipt.issuedAt)}`);
  return s.finish();
}

/** Merchant and payer side by side; a refund goes the other way. */
function parties(s: Sheet, merchant: string, payee: string, payer: string | null, refund: boolean): void {
  const half = (s.width - 24) / 2;
  const blocks: [string, string, string | null][] = refund
    ? [
        ["From", merchant, payee],
        ["To (payer refunded)", payer ?? "—", null],
      ]
    : [
        ["Paid to", merchant, payee],
        ["Paid by", payer ?? "Unknown payer", null],
      ];
  const heights = blocks.map(([, name, address]) => {
    const nameIsAddress = /^(0x|T)[0-9A-Za-z]{30,}$/.test(name);
    return (
      14 + s.measure(name, nameIsAddress ? FONT.mono : FONT.bold, 10.5, half) + (address ? s.measure(address, FONT.mono, 8.5, half) + 4 : 0)
    );
  });
  s.ensure(Math.max(...heights) + 16);
  blocks.forEach(([label, name, address], i) => {
    const x = s.left + i * (half + 24);
    let y = s.y;
    s.font(FONT.regular, 9, COLOR.muted);
    y += s.text(label, x, y, half) + 3;
    const nameIsAddress = /^(0x|T)[0-9A-Za-z]{30,}$/.test(name);
    s.font(nameIsAddress ? FONT.mono : FONT.bold, nameIsAddress ? 8.5 : 10.5);
    y += s.text(name, x, y, half) + 4;
    if (address) {
      s.font(FONT.mono, 8.5, COLOR.muted);
      s.text(address, x, y, half);
    }
  });
  s.y += Math.max(...heights) + 16;
}

/** The amount, big, with its status and date; the QR code of the verification URL on the right. */
function hero(s: Sheet, signed: SignedReceipt, refund: boolean): void {
  const { transfer: t, request: r, issuer } = signed.receipt;
  const top = s.y;
  const qr = 84;
  const width = s.width - qr - 30;
  s.font(FONT.regular, 9.5, COLOR.muted);
  s.text(refund ? "Amount refunded" : "Amount paid", s.left, s.y, width);
  s.y += 15;
  const amount = `${groupDecimal(t.amountDecimal)} ${t.token.symbol}`;
  s.font(FONT.bold, 26);
  const amountWidth = Math.min(s.doc.widthOfString(amount), width - 80);
  const h = s.text(amount, s.left, s.y, width - 80);
  pill(s, refund ? "Refund" : "Paid", s.left + amountWidth + 14, s.y + 7, refund ? "#b45309" : COLOR.paid);
  s.y += h + 2;
  const invoiceSymbol = symbolOf(r.invoiceCurrency);
  if (t.invoiceAmount && !(sameDecimal(t.invoiceAmount, t.amountDecimal) && invoiceSymbol === t.token.symbol)) {
    s.font(FONT.regular, 11, COLOR.ink);
    s.y += s.text(`= ${money(t.invoiceAmount, r.invoiceCurrency)}`, s.left, s.y, width) + 2;
  }
  s.font(FONT.regular, 9.5, COLOR.muted);
  s.y += s.text(`${refund ? "Refunded" : "Paid"} on ${dateTime(t.blockTime)}`, s.left, s.y, width);
  qrCode(s, issuer.verifyUrl, s.right - qr, top, qr);
  s.font(FONT.regular, 7.5, COLOR.muted);
  s.text("Scan to verify", s.right - qr - 10, top + qr + 4, qr + 20, { align: "center" });
  s.y = Math.max(s.y, top + qr + 14) + 22;
}

/** Where and how to check the receipt: the verification URL and what the signature is. */
function verification(s: Sheet, signed: SignedReceipt): void {
  const { receipt, signature } = signed;
  const url = receipt.issuer.verifyUrl;
  let keys = "";
  try {
    keys = ` The public keys are published at ${new URL("/.well-known/duebill-receipt-keys.json", receipt.issuer.url).href}.`;
  } catch {
    // An issuer URL that does not parse: the sentence without it.
  }
  const note = `Signed by ${receipt.issuer.name} with ${signature.alg} key ${signature.keyId}. The signature covers this receipt's JSON (its canonical encoding): anyone can check it without trusting the issuer, and check the transfer on chain.${keys}`;
  const verify = `Verify at ${url}`;
  const h = s.measure(verify, FONT.bold, 9.5, s.width - 24) + s.measure(note, FONT.regular, 8, s.width - 24) + 26;
  s.ensure(h + 10);
  s.doc.save().roundedRect(s.left, s.y, s.width, h, 4).fill(COLOR.panel).restore();
  let y = s.y + 10;
  s.font(FONT.bold, 9.5, LINK);
  y += s.text(verify, s.left + 12, y, s.width - 24, { link: url }) + 5;
  s.font(FONT.regular, 8, COLOR.muted);
  s.text(note, s.left + 12, y, s.width - 24);
  s.y += h + 10;
}
