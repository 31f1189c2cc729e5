import { sign, verify } from "node:crypto";
import { canonicalBytes } from "@/lib/receipts/canonical";
import { type KeyRing, receiptKeyRing } from "@/lib/receipts/keys";
import type { ReceiptPayload, SignedReceipt } from "@/lib/receipts/types";

/** Signs a receipt: Ed25519 over the RFC 8785 canonical bytes of `receipt`, base64url (docs/guides/receipts.md). */
export function signReceipt(receipt: ReceiptPayload, ring: KeyRing = receiptKeyRing()): SignedReceipt {
  const value = sign(null, canonicalBytes(receipt), ring.signer.privateKey).toString("base64url");
  return { receipt, signature: { alg: "Ed25519", keyId: ring.signer.keyId, value } };
}

export type SignatureCheck =
  | { valid: true; keyId: string; status: "active" | "retired" }
  | { valid: false; keyId: string | null; reason: string };

/** Checks a signed receipt against the published keys: its key id must be listed and the signature must hold. */
export function checkReceiptSignature(signed: SignedReceipt, ring: KeyRing = receiptKeyRing()): SignatureCheck {
  const keyId = typeof signed?.signature?.keyId === "string" ? signed.signature.keyId : null;
  if (signed?.signature?.alg !== "Ed25519") return { valid: false, keyId, reason: "the signature's alg is not Ed25519" };
  const key = ring.keys.find((k) => k.keyId === keyId);
  if (!key) return { valid: false, keyId, reason: `no published key has id ${keyId}` };
  const sig = Buffer.from(String(signed.signature.value), "base64url");
  if (sig.length !== 64 || sig.toString("base64url") !== signed.signature.value)
    return { valid: false, keyId, reason: "the signature is not 64 bytes of base64url" };
  let bytes: Buffer;
  try {
    bytes = canonicalBytes(signed.receipt);
  } catch {
    return { valid: false, keyId, reason: "the receipt has no canonical form" };
  }
  return verify(null, bytes, key.publicKey, sig)
    ? { valid: true, keyId: key.keyId, status: key.status }
    : { valid: false, keyId, reason: "the signature does not match the receipt" };
}
