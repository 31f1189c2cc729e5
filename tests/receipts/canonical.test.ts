/**
 * RFC 8785 (JSON Canonicalization Scheme) vectors, copied by hand from the RFC's text (§3.2.2, §3.2.3
 * and Appendix B), against both implementations: the app's (lib/receipts/canonical.ts) and the
 * independent verifier's (scripts/receipts/verify.ts). And the key ring's rules (ids, JWKS, production).
 */
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { reloadEnv } from "@/lib/env";
import { canonicalize } from "@/lib/receipts/canonical";
import { keyIdOf, ReceiptKeysUnavailable, receiptJwks, receiptKeyRing } from "@/lib/receipts/keys";
import { jcs } from "@/scripts/receipts/verify";

const IMPLEMENTATIONS = [
  ["lib/receipts/canonical.ts", canonicalize],
  ["scripts/receipts/verify.ts", jcs],
] as const;

/** RFC 8785 §3.2.2 (the input is written as JSON text there; JSON.parse reads it as any parser would). */
const INPUT_322 = String.raw`{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`;
const OUTPUT_322 = String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`;

/** RFC 8785 §3.2.3: property sorting by UTF-16 code units. */
const INPUT_323 = String.raw`{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}`;
const OUTPUT_323 =
  '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign",' +
  '"\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}';

/** RFC 8785 Appendix B: IEEE 754 bit patterns and their serialisation. */
const NUMBERS: [string, string][] = [
  ["0000000000000000", "0"],
  ["8000000000000000", "0"],
  ["0000000000000001", "5e-324"],
  ["8000000000000001", "-5e-324"],
  ["7fefffffffffffff", "1.7976931348623157e+308"],
  ["ffefffffffffffff", "-1.7976931348623157e+308"],
  ["4340000000000000", "9007199254740992"],
  ["c340000000000000", "-9007199254740992"],
  ["4430000000000000", "295147905179352830000"],
  ["44b52d02c7e14af5", "9.999999999999997e+22"],
  ["44b52d02c7e14af6", "1e+23"],
  ["44b52d02c7e14af7", "1.0000000000000001e+23"],
  ["444b1ae4d6e2ef4e", "999999999999999700000"],
  ["444b1ae4d6e2ef4f", "999999999999999900000"],
  ["444b1ae4d6e2ef50", "1e+21"],
  ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
  ["3eb0c6f7a0b5ed8d", "0.000001"],
  ["41b3de4355555553", "333333333.3333332"],
  ["41b3de4355555554", "333333333.33333325"],
  ["41b3de4355555555", "333333333.3333333"],
  ["41b3de4355555556", "333333333.3333334"],
  ["41b3de4355555557", "333333333.33333343"],
  ["becbf647612f3696", "-0.0000033333333333333333"],
  ["43143ff3c1cb0959", "1424953923781206.2"],
];
const fromBits = (hex: string) => Buffer.from(hex, "hex").readDoubleBE(0);

describe.each(IMPLEMENTATIONS)("RFC 8785 vectors: %s", (_name, canon) => {
  it("§3.2.2: literals, numbers and string escapes", () => {
    expect(canon(JSON.parse(INPUT_322))).toBe(OUTPUT_322);
  });

  it("§3.2.3: members sorted by UTF-16 code units (a surrogate pair sorts before U+FB33)", () => {
    expect(canon(JSON.parse(INPUT_323))).toBe(OUTPUT_323);
  });

  it.each(NUMBERS)("Appendix B: %s → %s", (bits, text) => {
    expect(canon(fromBits(bits))).toBe(text);
  });

  it("nested objects and arrays, no whitespace; no JSON form → refused", () => {
    expect(canon({ b: [1, { z: null, a: "x" }], a: { c: true } })).toBe('{"a":{"c":true},"b":[1,{"a":"x","z":null}]}');
    expect(() => canon(Number.NaN)).toThrow();
    expect(() => canon(Number.POSITIVE_INFINITY)).toThrow();
  });
});

describe("the receipt key ring", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ["RECEIPT_SIGNING_KEYS", "RECEIPT_RETIRED_KEYS", "NODE_ENV", "APP_SECRET"]) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    reloadEnv();
  });
  const set = (vars: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(vars)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    reloadEnv();
  };

  it("without keys: a development key derived from APP_SECRET, the same after a restart, another for another secret", () => {
    set({ RECEIPT_SIGNING_KEYS: undefined, APP_SECRET: "a".repeat(40) });
    const one = receiptJwks().keys;
    set({ APP_SECRET: "a".repeat(40) });
    expect(receiptJwks().keys).toEqual(one);
    expect(one[0]!.kid).toMatch(/^dev_[0-9a-f]{16}$/);
    set({ APP_SECRET: "b".repeat(40) });
    expect(receiptJwks().keys[0]!.x).not.toBe(one[0]!.x);
  });

  it("production refuses the development key", () => {
    set({ RECEIPT_SIGNING_KEYS: undefined, NODE_ENV: "production", APP_SECRET: "c".repeat(40) });
    expect(() => receiptKeyRing()).toThrow(ReceiptKeysUnavailable);
    expect(() => receiptKeyRing()).toThrow(/RECEIPT_SIGNING_KEYS is not set/);
  });

  it("configured keys: the first signs, ids default to k_ + 16 hex of sha256(raw public key), base64 DER accepted, duplicates refused", () => {
    const k1 = generateKeyPairSync("ed25519").privateKey;
    const k2 = generateKeyPairSync("ed25519").privateKey;
    const der = k2.export({ format: "der", type: "pkcs8" }).toString("base64");
    set({
      NODE_ENV: "production",
      RECEIPT_SIGNING_KEYS: JSON.stringify([
        { privateKey: k1.export({ format: "pem", type: "pkcs8" }) },
        { keyId: "rk_b", privateKey: der },
      ]),
    });
    const ring = receiptKeyRing();
    const raw = Buffer.from(createPublicKey(k1).export({ format: "jwk" }).x!, "base64url");
    const expected = `k_${require("node:crypto").createHash("sha256").update(raw).digest("hex").slice(0, 16)}`;
    expect(ring.signer.keyId).toBe(expected);
    expect(keyIdOf(createPublicKey(k1))).toBe(expected);
    expect(receiptJwks().keys.map((k) => [k.kid, k.status])).toEqual([
      [expected, "active"],
      ["rk_b", "active"],
    ]);
    set({
      RECEIPT_SIGNING_KEYS: JSON.stringify([
        { keyId: "x", privateKey: der },
        { keyId: "x", privateKey: der },
      ]),
    });
    expect(() => receiptKeyRing()).toThrow(/listed twice/);
  });

  it("a non-Ed25519 key is refused by name", () => {
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "pem", type: "pkcs8" });
    set({ RECEIPT_SIGNING_KEYS: JSON.stringify([{ keyId: "ec", privateKey: ec }]) });
    expect(() => receiptKeyRing()).toThrow(/RECEIPT_SIGNING_KEYS\[0\] is a ec key, not Ed25519/);
  });
});
