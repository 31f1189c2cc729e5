import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { appSecretProblem, env } from "@/lib/env";
import { log } from "@/lib/log";

/**
 * Webhook signing secrets must be usable (we sign with them), so unlike API keys they cannot
 * be stored hashed: they are encrypted at rest with AES-256-GCM under sha256(APP_SECRET).
 *
 * Stored format: `v1.<iv>.<tag>.<ciphertext>`, each part base64url. The version prefix lets a
 * future key rotation or algorithm change read old rows.
 */
const VERSION = "v1";
/** Binds ciphertexts to their purpose: a blob made for something else under the same key fails. */
const AAD = Buffer.from("duebill:webhook-secret:v1", "utf8");
/** Public on purpose: only ever used outside production, where nothing real is protected. */
const DEV_APP_SECRET = "duebill-development-app-secret--not-for-production";

let warned = false;
let cached: { source: string; key: Buffer } | undefined;

function key(): Buffer {
  const { APP_SECRET, NODE_ENV } = env();
  // The one APP_SECRET rule (lib/env.ts): in production an unset secret is refused here too, not only at boot.
  const problem = appSecretProblem(APP_SECRET, NODE_ENV === "production");
  if (problem) throw new Error(`APP_SECRET ${problem}`);
  let source = APP_SECRET;
  if (!source) {
    if (!warned) {
      warned = true;
      log.warn("APP_SECRET is not set: webhook secrets are encrypted with a fixed development key (never do this in production)");
    }
    source = DEV_APP_SECRET;
  }
  // Tests switch APP_SECRET between cases, so the cache is keyed by the source value.
  if (cached?.source !== source) cached = { source, key: createHash("sha256").update(source, "utf8").digest() };
  return cached.key;
}

export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  cipher.setAAD(AAD);
  const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString("base64url"), tag.toString("base64url"), ct.toString("base64url")].join(".");
}

export function decryptSecret(enc: string): string {
  const parts = enc.split(".");
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error("Unsupported webhook secret format");
  const [, iv, tag, ct] = parts as [string, string, string, string];
  try {
    const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
    decipher.setAAD(AAD);
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    // GCM authentication failure: tampered row or a different APP_SECRET than at encryption.
    throw new Error("Cannot decrypt webhook secret: corrupted value or APP_SECRET changed");
  }
}
