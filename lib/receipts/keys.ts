import { createHash, createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from "node:crypto";
import { env } from "@/lib/env";
import { retiredKeyListSchema, signingKeyListSchema } from "@/lib/env/receipt-variables";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";

/**
 * The receipt key ring (docs/guides/receipts.md "Keys"): Ed25519 keys with ids. RECEIPT_SIGNING_KEYS
 * lists the keys that may sign — the first one signs, the rest stay published as `active` — and
 * RECEIPT_RETIRED_KEYS the rotated-out public keys still published as `retired`, so a receipt
 * verifies by its `signature.keyId` for as long as its key is listed. A key id is the operator's
 * name for it, or `k_` + the first 16 hex of sha256(raw 32-byte public key) when none is given.
 * Without RECEIPT_SIGNING_KEYS (development, tests) the one key is derived from APP_SECRET with
 * HKDF-SHA256, so receipts keep verifying across restarts; production refuses that fallback.
 */
export interface ReceiptKey {
  keyId: string;
  status: "active" | "retired";
  publicKey: KeyObject;
  /** The raw 32-byte public key (JWK `x`, base64url). */
  x: string;
  retiredAt: string | null;
}

export interface KeyRing {
  signer: ReceiptKey & { privateKey: KeyObject };
  keys: ReceiptKey[];
}

/** Public on purpose, as lib/webhooks/secret-box.ts's: only outside production, where nothing real is protected. */
const DEV_APP_SECRET = "duebill-development-app-secret--not-for-production";
const HKDF_INFO = "duebill:receipt-signing-key:v1";
/** PKCS#8 DER of an Ed25519 private key is this prefix + its 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
/** SPKI DER of an Ed25519 public key is this prefix + its 32 raw bytes (RFC 8410). */
const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

export class ReceiptKeysUnavailable extends AppError {
  constructor(message: string) {
    super("upstream_unavailable", message);
  }
}

const rawOf = (publicKey: KeyObject): string => publicKey.export({ format: "jwk" }).x as string;

/** `k_` + the first 16 hex of sha256 of the raw public key: the id of a key configured without one. */
export function keyIdOf(publicKey: KeyObject): string {
  return `k_${createHash("sha256")
    .update(Buffer.from(rawOf(publicKey), "base64url"))
    .digest("hex")
    .slice(0, 16)}`;
}

function ed25519(key: KeyObject, what: string): KeyObject {
  if (key.asymmetricKeyType !== "ed25519") throw new ReceiptKeysUnavailable(`${what} is a ${key.asymmetricKeyType} key, not Ed25519`);
  return key;
}

/** A PKCS#8 private key, PEM or base64 DER. */
export function parsePrivateKey(text: string, what = "a receipt signing key"): KeyObject {
  try {
    const key = text.includes("-----BEGIN")
      ? createPrivateKey(text)
      : createPrivateKey({ key: Buffer.from(text.trim(), "base64"), format: "der", type: "pkcs8" });
    return ed25519(key, what);
  } catch (err) {
    if (err instanceof ReceiptKeysUnavailable) throw err;
    throw new ReceiptKeysUnavailable(`${what} is not a PKCS#8 private key (PEM or base64 DER)`);
  }
}

/** An SPKI public key, PEM or base64 DER, or the raw 32 bytes (base64url, a JWK's `x`). */
export function parsePublicKey(text: string, what = "a retired receipt key"): KeyObject {
  try {
    if (text.includes("-----BEGIN")) return ed25519(createPublicKey(text), what);
    const bytes = Buffer.from(text.trim(), /[-_]/.test(text) ? "base64url" : "base64");
    const der = bytes.length === 32 ? Buffer.concat([SPKI_ED25519_PREFIX, bytes]) : bytes;
    return ed25519(createPublicKey({ key: der, format: "der", type: "spki" }), what);
  } catch (err) {
    if (err instanceof ReceiptKeysUnavailable) throw err;
    throw new ReceiptKeysUnavailable(`${what} is not an SPKI public key (PEM, base64 DER or raw base64url)`);
  }
}

/** The development key: HKDF-SHA256(APP_SECRET, salt "", info HKDF_INFO) → a 32-byte Ed25519 seed. */
export function devSigningKey(appSecret: string): KeyObject {
  const seed = Buffer.from(hkdfSync("sha256", appSecret, Buffer.alloc(0), HKDF_INFO, 32));
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: "der", type: "pkcs8" });
}

let cached: { source: string; ring: KeyRing } | undefined;
let warned = false;

function buildRing(): KeyRing {
  const { RECEIPT_SIGNING_KEYS, RECEIPT_RETIRED_KEYS, APP_SECRET, NODE_ENV } = env();
  let signing: { keyId: string; privateKey: KeyObject }[];
  if (RECEIPT_SIGNING_KEYS) {
    signing = signingKeyListSchema.parse(JSON.parse(RECEIPT_SIGNING_KEYS)).map((k, i) => {
      const privateKey = parsePrivateKey(k.privateKey, `RECEIPT_SIGNING_KEYS[${i}]`);
      return { keyId: k.keyId ?? keyIdOf(createPublicKey(privateKey)), privateKey };
    });
  } else {
    if (NODE_ENV === "production")
      throw new ReceiptKeysUnavailable(
        "RECEIPT_SIGNING_KEYS is not set: production signs receipts only with configured keys (docs/guides/receipts.md)",
      );
    if (!warned) {
      warned = true;
      log.warn("RECEIPT_SIGNING_KEYS is not set: receipts are signed with a development key derived from APP_SECRET");
    }
    const privateKey = devSigningKey(APP_SECRET ?? DEV_APP_SECRET);
    signing = [{ keyId: `dev_${keyIdOf(createPublicKey(privateKey)).slice(2)}`, privateKey }];
  }
  const retired = RECEIPT_RETIRED_KEYS ? retiredKeyListSchema.parse(JSON.parse(RECEIPT_RETIRED_KEYS)) : [];
  const keys: ReceiptKey[] = [
    ...signing.map((k) => {
      const publicKey = createPublicKey(k.privateKey);
      return { keyId: k.keyId, status: "active" as const, publicKey, x: rawOf(publicKey), retiredAt: null };
    }),
    ...retired.map((k, i) => {
      const publicKey = parsePublicKey(k.publicKey, `RECEIPT_RETIRED_KEYS[${i}]`);
      return { keyId: k.keyId, status: "retired" as const, publicKey, x: rawOf(publicKey), retiredAt: k.retiredAt };
    }),
  ];
  const ids = keys.map((k) => k.keyId);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new ReceiptKeysUnavailable(`receipt key id ${dup} is listed twice`);
  const first = signing[0]!;
  return { signer: { ...keys[0]!, privateKey: first.privateKey }, keys };
}

/** The key ring as configured now (tests change the variables between cases: the cache follows them). */
export function receiptKeyRing(): KeyRing {
  const e = env();
  const source = JSON.stringify([e.RECEIPT_SIGNING_KEYS, e.RECEIPT_RETIRED_KEYS, e.APP_SECRET, e.NODE_ENV]);
  if (cached?.source !== source) cached = { source, ring: buildRing() };
  return cached.ring;
}

/** The published key set (JWKS, RFC 8037 OKP keys): every key a receipt may name. */
export function receiptJwks() {
  return {
    keys: receiptKeyRing().keys.map((k) => ({
      kty: "OKP" as const,
      crv: "Ed25519" as const,
      x: k.x,
      kid: k.keyId,
      use: "sig" as const,
      alg: "EdDSA" as const,
      status: k.status,
      ...(k.retiredAt ? { retiredAt: k.retiredAt } : {}),
    })),
  };
}
