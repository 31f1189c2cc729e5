import { now as clockNow } from "@/lib/clock";
import { db } from "@/lib/db";
import type { MailMessage } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { composeMail } from "@/lib/mail/compose";
import { mailSettings } from "@/lib/mail/config";
import { mailTransport } from "@/lib/mail/transport";

/**
 * Sending, step 2 of email: due messages are leased (FOR UPDATE SKIP LOCKED, so any number of workers
 * can run it), sent through the pooled SMTP transport and marked sent — or retried with backoff, or
 * failed for good on a permanent refusal (5xx for the recipient or the message) or after the last
 * attempt. A sent message is never picked again. The one window for a duplicate is a crash after
 * the server accepted a message and before the database recorded it; its Message-ID stays the same.
 */
export const MAIL_RETRY_DELAYS_MS = [60_000, 300_000, 900_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000] as const;
export const MAIL_MAX_ATTEMPTS = MAIL_RETRY_DELAYS_MS.length + 1;
/** Longer than a whole SMTP exchange can take (lib/mail/transport.ts timeouts). */
const LEASE_MS = 120_000;

export interface MailDeliverResult {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
}

/** A 5xx about this recipient or this message will not change on retry; anything else (connection, 4xx, auth) may. */
function isPermanent(err: SmtpError): boolean {
  return (
    typeof err.responseCode === "number" &&
    err.responseCode >= 500 &&
    err.responseCode < 600 &&
    (err.code === "EENVELOPE" || err.code === "EMESSAGE")
  );
}

export async function deliverMail(opts: { limit?: number; now?: Date } = {}): Promise<MailDeliverResult> {
  const result: MailDeliverResult = { claimed: 0, sent: 0, retried: 0, failed: 0 };
  const settings = mailSettings();
  if (!settings) return result;
  const at = opts.now ?? clockNow();
  const leaseUntil = new Date(at.getTime() + LEASE_MS);
  const claimed = await db().$queryRaw<MailMessage[]>`
    UPDATE "MailMessage" SET "leaseUntil" = ${leaseUntil}, "updatedAt" = ${at}
    WHERE id IN (
      SELECT id FROM "MailMessage"
      WHERE status = 'pending' AND "nextAttemptAt" <= ${at} AND ("leaseUntil" IS NULL OR "leaseUntil" < ${at})
      ORDER BY "nextAttemptAt" LIMIT ${opts.limit ?? 20} FOR UPDATE SKIP LOCKED)
    RETURNING *`;
  result.claimed = claimed.length;
  const transport = mailTransport(settings);
  for (const message of claimed) {
    // The lease and the attempt count guard every write: a worker whose lease was taken over writes nothing.
    const owned = { id: message.id, leaseUntil, attempts: message.attempts };
    const attempts = message.attempts + 1;
    try {
      const mail = await composeMail(message, settings);
      if (!mail) {
        await db().mailMessage.updateMany({
          where: owned,
          data: { status: "failed", attempts, leaseUntil: null, lastError: "the payment or its link is gone" },
        });
        result.failed++;
        continue;
      }
      await transport.sendMail(mail);
      await db().mailMessage.updateMany({
        where: owned,
        data: { status: "sent", attempts, sentAt: clockNow(), leaseUntil: null, lastError: null },
      });
      result.sent++;
    } catch (err) {
      const e = err as SmtpError;
      const last = isPermanent(e) || attempts >= MAIL_MAX_ATTEMPTS;
      const delay = MAIL_RETRY_DELAYS_MS[Math.min(attempts - 1, MAIL_RETRY_DELAYS_MS.length - 1)]!;
      const lastError = `${e.code ?? e.name}${e.responseCode ? ` ${e.responseCode}` : ""}: ${e.message}`.slice(0, 500);
      await db().mailMessage.updateMany({
        where: owned,
        data: last
          ? { status: "failed", attempts, leaseUntil: null, lastError }
          : { attempts, leaseUntil: null, lastError, nextAttemptAt: new Date(at.getTime() + delay) },
      });
      log.warn("mail attempt failed", { messageId: message.id, kind: message.kind, attempts, final: last, error: lastError });
      result[last ? "failed" : "retried"]++;
    }
  }
  return result;
}
