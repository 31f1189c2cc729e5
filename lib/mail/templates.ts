/**
 * The two emails, each as plain text and simple HTML. Every value that comes from a merchant or a
 * payer (names, references, descriptions) or from the chain is escaped in the HTML part; links are
 * only ever http(s) URLs Duebill built. Subjects lose control characters (no header tricks).
 */
export interface PaymentFacts {
  merchant: string;
  amount: string;
  symbol: string;
  networkName: string;
  reference: string | null;
  description: string | null;
  payer: string | null;
  txHash: string;
  explorerUrl: string | null;
  paidAt: string;
  /** The receipt's public page (its verification URL). */
  receiptUrl: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One line of a subject: control characters (CR, LF, ...) become spaces, at most 200 characters. */
export function subjectLine(s: string): string {
  const spaced = Array.from(s, (c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? " " : c)).join("");
  return spaced.replace(/ {2,}/g, " ").trim().slice(0, 200);
}

const safeHref = (url: string) => (/^https?:\/\//i.test(url) ? escapeHtml(url) : "#");

function rows(facts: [string, string | null][]): { text: string; html: string } {
  const shown = facts.filter((f): f is [string, string] => f[1] !== null && f[1] !== "");
  return {
    text: shown.map(([k, v]) => `${k}: ${v}`).join("\n"),
    html: shown
      .map(
        ([k, v]) =>
          `<tr><td style="padding:4px 12px 4px 0;color:#64748b;vertical-align:top">${escapeHtml(k)}</td><td style="padding:4px 0;color:#0f172a;word-break:break-all">${escapeHtml(v)}</td></tr>`,
      )
      .join(""),
  };
}

function page(title: string, intro: string, table: string, links: [string, string][], footer: string): string {
  const buttons = links
    .map(([label, url]) => `<p style="margin:12px 0"><a href="${safeHref(url)}" style="color:#4338ca">${escapeHtml(label)}</a></p>`)
    .join("");
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f8fafc;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif">` +
    `<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:12px;padding:24px;border:1px solid #e2e8f0">` +
    `<h1 style="font-size:20px;margin:0 0 8px;color:#0f172a">${escapeHtml(title)}</h1>` +
    `<p style="margin:0 0 16px;color:#334155">${escapeHtml(intro)}</p>` +
    `<table style="border-collapse:collapse;font-size:14px">${table}</table>${buttons}` +
    `<p style="margin:16px 0 0;font-size:12px;color:#64748b">${escapeHtml(footer)}</p></div></body></html>`
  );
}

function factRows(f: PaymentFacts, payerRow: boolean) {
  return rows([
    ["Amount", `${f.amount} ${f.symbol}`],
    ["Network", f.networkName],
    ["Paid to", f.merchant],
    ["For", f.description],
    ["Reference", f.reference],
    ["Payer", payerRow ? f.payer : null],
    ["Paid at", f.paidAt],
    ["Transaction", f.txHash],
  ]);
}

/** To the payer: the receipt (its PDF goes along as an attachment). */
export function payerReceiptMail(f: PaymentFacts): RenderedMail {
  const title = `Receipt from ${f.merchant}`;
  const intro = `You paid ${f.amount} ${f.symbol} to ${f.merchant}. Thank you.`;
  const t = factRows(f, false);
  const footer =
    "The receipt is attached as a PDF. Anyone can check it at the verification link: it is signed by the payment service and names the transaction on chain.";
  const links: [string, string][] = [["Verify this receipt", f.receiptUrl]];
  if (f.explorerUrl) links.push(["The transaction on the explorer", f.explorerUrl]);
  return {
    subject: subjectLine(`Your receipt from ${f.merchant}: ${f.amount} ${f.symbol}`),
    text: [title, "", intro, "", t.text, "", ...links.map(([k, v]) => `${k}: ${v}`), "", footer, ""].join("\n"),
    html: page(title, intro, t.html, links, footer),
  };
}

/** To the account's users: a payment arrived on one of its links. */
export function payeeNotificationMail(f: PaymentFacts & { linkUrl: string; dashboardUrl: string }): RenderedMail {
  const title = "Payment received";
  const intro = `A payer sent ${f.amount} ${f.symbol} through your payment link.`;
  const t = factRows(f, true);
  const links: [string, string][] = [
    ["The receipt", f.receiptUrl],
    ["The payment link", f.linkUrl],
    ["Your payments", f.dashboardUrl],
  ];
  if (f.explorerUrl) links.push(["The transaction on the explorer", f.explorerUrl]);
  const footer = "You receive this because your account's sign-in email is on the account that was paid.";
  return {
    subject: subjectLine(`Payment received: ${f.amount} ${f.symbol}${f.reference ? ` (${f.reference})` : ""}`),
    text: [title, "", intro, "", t.text, "", ...links.map(([k, v]) => `${k}: ${v}`), "", footer, ""].join("\n"),
    html: page(title, intro, t.html, links, footer),
  };
}
