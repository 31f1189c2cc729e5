import { env } from "@/lib/env";

/**
 * This deployment's SMTP settings, read from SMTP_URL and MAIL_FROM (lib/env/mail-variables.ts), or null
 * when SMTP_URL is unset: then no email is planned or sent, and nothing fails for it.
 */
export interface MailSettings {
  host: string;
  port: number;
  /** smtps://: TLS from the first byte; smtp://: plain, upgraded with STARTTLS when the server offers it. */
  secure: boolean;
  auth: { user: string; pass: string } | undefined;
  from: string;
  /** The sender's domain: the right-hand side of every Message-ID. */
  domain: string;
  /** Identifies the settings (the transport is rebuilt when they change); holds no password. */
  key: string;
}

export function mailSettings(): MailSettings | null {
  const e = env();
  if (!e.SMTP_URL) return null;
  const url = new URL(e.SMTP_URL);
  const secure = url.protocol === "smtps:";
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  const user = decodeURIComponent(url.username);
  const auth = user ? { user, pass: decodeURIComponent(url.password) } : undefined;
  const appHost = new URL(e.APP_URL).hostname;
  const from = e.MAIL_FROM ?? `Duebill <no-reply@${appHost}>`;
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? appHost;
  return { host: url.hostname, port, secure, auth, from, domain, key: `${url.protocol}//${user}@${url.hostname}:${port}|${from}` };
}

/** What the dashboard and /admin say about email: on (with the sender) or off. */
export function mailStatus(): { enabled: true; from: string; server: string } | { enabled: false } {
  const s = mailSettings();
  return s ? { enabled: true, from: s.from, server: `${s.host}:${s.port}` } : { enabled: false };
}
