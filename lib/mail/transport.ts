import nodemailer from "nodemailer";
import type SMTPPool from "nodemailer/lib/smtp-pool";
import type { MailSettings } from "@/lib/mail/config";

/**
 * One pooled SMTP transport per process (a few connections kept open and reused), rebuilt when the
 * settings change. Timeouts are short: a stuck server fails the attempt, which is retried later
 * (lib/mail/deliver.ts), instead of holding the worker.
 */
let current: { key: string; transport: nodemailer.Transporter<SMTPPool.SentMessageInfo> } | null = null;

export function mailTransport(settings: MailSettings): nodemailer.Transporter<SMTPPool.SentMessageInfo> {
  if (current?.key === settings.key) return current.transport;
  current?.transport.close();
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: 2,
    maxMessages: 100,
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: settings.auth,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  current = { key: settings.key, transport };
  return transport;
}

/** Closes the pool (tests, shutdown); the next send opens a new one. */
export function closeMailTransport(): void {
  current?.transport.close();
  current = null;
}
