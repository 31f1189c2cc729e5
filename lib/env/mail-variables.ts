import { z } from "zod";

/**
 * The email variables (lib/mail, docs/guides/email.md), spread into envSchema in lib/env/variables.ts
 * at their place in the configuration page. Each carries its VariableDoc like the others.
 */
const mailDoc = <T extends z.ZodType>(schema: T, d: { description: string; default?: string; requiredWhen?: string }): T =>
  schema.meta({ ...d });

export const mailVariables = {
  SMTP_URL: mailDoc(
    z
      .string()
      .url()
      .refine((s) => /^smtps?:\/\/[^/?#]+/i.test(s), "must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@host:587")
      .optional(),
    {
      description:
        "SMTP server for receipts and payment notifications by email (lib/mail, [guide](../guides/email.md)): `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465` (TLS); user and password URL-encoded",
      default: "unset (no email is sent)",
    },
  ),
  MAIL_FROM: mailDoc(z.string().min(3).max(320).optional(), {
    description: "sender of those emails, e.g. `Shop receipts <receipts@shop.example>`; its domain's SPF/DKIM must allow the SMTP server",
    default: "`Duebill <no-reply@<APP_URL's host>>`",
  }),
};
