import { z } from "zod";

/**
 * The receipt signing keys (lib/receipts/keys.ts, docs/guides/receipts.md): JSON lists, checked
 * here for shape only (the keys themselves are parsed by node:crypto when first used).
 */
const KEY_ID = /^[A-Za-z0-9_.-]{1,64}$/;

export const signingKeyListSchema = z
  .array(z.object({ keyId: z.string().regex(KEY_ID).optional(), privateKey: z.string().min(40) }).strict())
  .min(1);

export const retiredKeyListSchema = z.array(
  z.object({ keyId: z.string().regex(KEY_ID), publicKey: z.string().min(40), retiredAt: z.string().datetime({ offset: true }) }).strict(),
);

/** A JSON variable whose parsed value must match `schema`; the message names what is wrong, never the value. */
const jsonList = (schema: z.ZodType, example: string) =>
  z.string().superRefine((raw, ctx) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      ctx.addIssue({ code: "custom", message: `must be JSON, e.g. ${example}` });
      return;
    }
    const r = schema.safeParse(parsed);
    if (!r.success)
      ctx.addIssue({ code: "custom", message: `must be a JSON list such as ${example} (${r.error.issues[0]?.message ?? "invalid"})` });
  });

export const receiptVariables = {
  RECEIPT_SIGNING_KEYS: jsonList(signingKeyListSchema, '[{"keyId":"rk_2026_11","privateKey":"-----BEGIN PRIVATE KEY-----\\n…"}]')
    .optional()
    .meta({
      description:
        "Ed25519 keys that sign receipts, a JSON list of `{keyId, privateKey}` (PKCS#8 PEM or base64 DER; `keyId` optional: `k_` + 16 hex of sha256 of the raw public key); the FIRST signs, the others still verify (docs/guides/receipts.md)",
      default: "unset: a development key derived from `APP_SECRET` (refused in production: receipts are then not issued)",
      requiredWhen: "production, for receipts",
    }),
  RECEIPT_RETIRED_KEYS: jsonList(
    retiredKeyListSchema,
    '[{"keyId":"rk_2026_05","publicKey":"-----BEGIN PUBLIC KEY-----\\n…","retiredAt":"2026-11-01T00:00:00Z"}]',
  )
    .optional()
    .meta({
      description:
        "rotated-out receipt keys still published (status `retired`) so older receipts verify by their key id: a JSON list of `{keyId, publicKey (SPKI PEM or base64 DER), retiredAt}`",
    }),
};
