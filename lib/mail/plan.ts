import { now as clockNow } from "@/lib/clock";
import { db } from "@/lib/db";
import type { MailKind } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";
import { mailSettings } from "@/lib/mail/config";
import { payeeAddresses, paymentMailContext } from "@/lib/mail/context";
import { payeeNotificationMail, payerReceiptMail } from "@/lib/mail/templates";

interface EventRow {
  id: string;
  requestId: string | null;
  payload: string;
}

/**
 * Planning, step 1 of email: payment.confirmed outbox events become MailMessage rows — the payer's
 * receipt when the link collected an email, one notification per address of the account's users.
 * Events are claimed with FOR UPDATE SKIP LOCKED and marked (mailPlannedAt) in the transaction that
 * writes their messages, so a crash plans nothing or all; (kind, paymentId, to) is unique, so a re-run
 * never makes a second message. Without SMTP_URL the events are marked and no message is written:
 * turning email on later does not send old receipts.
 */
export async function planMail(limit = 50, at: Date = clockNow()): Promise<{ events: number; messages: number }> {
  const enabled = mailSettings() !== null;
  return db().$transaction(async (tx) => {
    const events = await tx.$queryRaw<EventRow[]>`
      UPDATE "OutboxEvent" SET "mailPlannedAt" = ${at}
      WHERE id IN (
        SELECT id FROM "OutboxEvent" WHERE type = 'payment.confirmed' AND "mailPlannedAt" IS NULL
        ORDER BY "createdAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING id, "requestId", payload`;
    if (!enabled || events.length === 0) return { events: events.length, messages: 0 };
    const rows: { id: string; accountId: string; kind: MailKind; to: string; subject: string; paymentId: string; eventId: string }[] = [];
    for (const ev of events) {
      if (!ev.requestId) continue;
      const txHash = txHashOf(ev.payload);
      // The payment that made the request paid: the event's transaction (its last transfer to the request).
      const payment =
        (txHash && (await tx.payment.findFirst({ where: { requestId: ev.requestId, txHash }, orderBy: { logIndex: "desc" } }))) ||
        (await tx.payment.findFirst({ where: { requestId: ev.requestId }, orderBy: { createdAt: "desc" } }));
      if (!payment) continue;
      const ctx = await paymentMailContext(payment.id, tx);
      if (!ctx) continue;
      const base = { accountId: ctx.accountId, paymentId: payment.id, eventId: ev.id, nextAttemptAt: at };
      const facts = { ...ctx.facts, receiptUrl: "" };
      if (ctx.link.collectPayerEmail && ctx.link.payerEmail) {
        rows.push({ ...base, id: ulid(), kind: "payer_receipt", to: ctx.link.payerEmail, subject: payerReceiptMail(facts).subject });
      }
      const subject = payeeNotificationMail({ ...facts, linkUrl: "", dashboardUrl: "" }).subject;
      for (const to of await payeeAddresses(ctx.accountId, tx)) rows.push({ ...base, id: ulid(), kind: "payee_notification", to, subject });
    }
    const created = rows.length > 0 ? (await tx.mailMessage.createMany({ data: rows, skipDuplicates: true })).count : 0;
    return { events: events.length, messages: created };
  });
}

function txHashOf(payload: string): string | null {
  try {
    const body = JSON.parse(payload) as { txHash?: unknown };
    return typeof body.txHash === "string" ? body.txHash : null;
  } catch {
    return null;
  }
}
