import type Mail from "nodemailer/lib/mailer";
import { renderReceiptPdf } from "@/lib/documents/receipt-pdf";
import type { MailMessage } from "@/lib/generated/prisma/client";
import type { MailSettings } from "@/lib/mail/config";
import { paymentMailContext } from "@/lib/mail/context";
import { payeeNotificationMail, payerReceiptMail } from "@/lib/mail/templates";
import { receiptForPayment } from "@/lib/receipts/issue";

/** Raised when a message cannot be written yet (its receipt is not there): the attempt is retried later. */
export class NotReadyError extends Error {}

/**
 * The email of one MailMessage row, built when it is sent (so a retry carries the receipt as it
 * is then): text, HTML and, for the payer, the receipt PDF. The Message-ID is the row's, so a
 * message sent again after a crash between the server's "250" and the database's update is
 * recognisably the same message.
 */
export async function composeMail(message: MailMessage, settings: MailSettings): Promise<Mail.Options | null> {
  const ctx = await paymentMailContext(message.paymentId);
  if (!ctx) return null;
  const receipt = await receiptForPayment(message.paymentId);
  if (!receipt) throw new NotReadyError("the payment's receipt is not issued yet");
  const facts = { ...ctx.facts, receiptUrl: receipt.signed.receipt.issuer.verifyUrl };
  const common = {
    from: settings.from,
    to: message.to,
    messageId: `<${message.id.toLowerCase()}@${settings.domain}>`,
    headers: { "Auto-Submitted": "auto-generated", "X-Duebill-Mail": message.kind },
  };
  if (message.kind === "payer_receipt") {
    const rendered = payerReceiptMail(facts);
    const pdf = await renderReceiptPdf(receipt.signed, ctx.brand);
    return {
      ...common,
      subject: message.subject,
      text: rendered.text,
      html: rendered.html,
      attachments: [{ filename: `receipt-${receipt.id}.pdf`, content: pdf, contentType: "application/pdf" }],
    };
  }
  const rendered = payeeNotificationMail({ ...facts, linkUrl: ctx.linkUrl, dashboardUrl: ctx.dashboardUrl });
  return { ...common, subject: message.subject, text: rendered.text, html: rendered.html };
}
