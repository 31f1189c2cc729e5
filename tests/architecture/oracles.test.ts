/**
 * Rules the interface fixes, checked against oracles outside Duebill's code: never the code's own
 * functions on both sides of an assertion.
 *
 * - Webhook signatures: "The signature header is `x-<service>-signature` … hex HMAC-SHA256 of the
 *   JSON-serialised body, keyed with the webhook secret; a receiver rejects a mismatch with 401"
 *   (docs/spec/service-interface.md, "Events"). Oracles: fixed vectors computed with the OpenSSL CLI
 *   (`printf '%s' BODY | openssl dgst -sha256 -hmac SECRET`, OpenSSL 3.0.19), OpenSSL run again here
 *   when it is installed, and a receiver written from that sentence alone (node:crypto, no lib/).
 * - Tron message signing v2 and Tron addresses: tronweb 6.5.1 (a devDependency, the library
 *   TronLink's signMessageV2 is defined by), standing in for a TronLink wallet.
 *
 * Each oracle is shown to fail on a wrong value: a flipped HMAC, an HMAC keyed the Standard
 * Webhooks way, a Tron hash with the Ethereum prefix or a character count instead of a byte count,
 * a lowercased or corrupted base58 address.
 */

import { spawnSync } from "node:child_process";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { TronWeb, Trx } from "tronweb";
import { keccak256, serializeSignature, toBytes } from "viem";
import { generatePrivateKey, privateKeyToAccount, sign } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { recoverTronSigner, tronMessageHash } from "@/lib/auth/sign-in/tron-message";
import { hexToTron, isTronAddress, tronToHex } from "@/lib/chain/address";
import { db } from "@/lib/db";
import { reloadEnv } from "@/lib/env";
import { ulid } from "@/lib/ids";
import { deliverDue } from "@/lib/webhooks/deliver";
import { fanOutEvents } from "@/lib/webhooks/fan-out";
import { encryptSecret } from "@/lib/webhooks/secret-box";
import { signatureHeader } from "@/lib/webhooks/sign";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";

// ---------------------------------------------------------------------------------------------
// Webhook HMAC

/** Computed on 2026-11-25 with `printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET"` (OpenSSL 3.0.19). */
const OPENSSL_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const OPENSSL_VECTORS: [body: string, hex: string][] = [
  [
    '{"event":"payment.confirmed","requestId":"01abababababababababababababababababababababababababababababababab","amount":"12.5","fees":[]}',
    "5f0867066a0cbde52aabb96437ceb4593b11df023a6020b79b3dbfc7c685f241",
  ],
  ["{}", "6cbbcdf2c8016ca85b50543b19e8e121ef16137967bdfa3ce660972922bafaeb"],
  ['{"event":"payment.confirmed","note":"Zahlung für Café ☕"}', "9970bdcebaa73c7bab34a5d5f993da2346f159f71b1744e8e0d6a221b6dbb3ee"],
];

const hasOpenssl = spawnSync("openssl", ["version"], { encoding: "utf8" }).status === 0;

/** OpenSSL's HMAC of exactly these bytes (stdin), keyed with the secret string. */
function opensslHmac(secret: string, body: string | Buffer): string {
  const r = spawnSync("openssl", ["dgst", "-sha256", "-hmac", secret], { input: body, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`);
  const m = /= ([0-9a-f]{64})\s*$/.exec(r.stdout);
  if (!m) throw new Error(`unexpected openssl output: ${r.stdout}`);
  return m[1]!;
}

/**
 * A receiver's check, written from the interface's sentence and nothing else: header
 * `x-<service>-signature`, hex HMAC-SHA256 of the body bytes, keyed with the secret; mismatch → 401.
 */
function interfaceVerifier(service: string, secret: string) {
  return (headers: http.IncomingHttpHeaders, rawBody: Buffer): 200 | 401 => {
    const got = headers[`x-${service}-signature`];
    if (typeof got !== "string" || !/^[0-9a-f]{64}$/.test(got)) return 401;
    const want = createHmac("sha256", secret).update(rawBody).digest();
    return timingSafeEqual(want, Buffer.from(got, "hex")) ? 200 : 401;
  };
}

describe("webhook signature against OpenSSL (fixed vectors and the CLI)", () => {
  it.each(OPENSSL_VECTORS)("x-<service>-signature of %s is OpenSSL's hex HMAC-SHA256", (body, hex) => {
    expect(signatureHeader(OPENSSL_SECRET, body)).toBe(hex);
    expect(interfaceVerifier("duebill", OPENSSL_SECRET)({ "x-duebill-signature": hex }, Buffer.from(body, "utf8"))).toBe(200);
  });

  it("the vectors fail on a wrong HMAC: a flipped digit, another body byte, the Standard Webhooks key, the secret without its prefix", () => {
    const [body, hex] = OPENSSL_VECTORS[0]!;
    const verify = interfaceVerifier("duebill", OPENSSL_SECRET);
    const flipped = `${hex[0] === "0" ? "1" : "0"}${hex.slice(1)}`;
    expect(verify({ "x-duebill-signature": flipped }, Buffer.from(body))).toBe(401);
    expect(verify({ "x-duebill-signature": hex }, Buffer.from(`${body} `))).toBe(401);
    expect(verify({ "x-other-signature": hex }, Buffer.from(body))).toBe(401);
    // Plausible wrong implementations do not match the OpenSSL vector.
    const standardKey = Buffer.from(OPENSSL_SECRET.slice("whsec_".length), "base64");
    expect(createHmac("sha256", standardKey).update(body).digest("hex")).not.toBe(hex);
    expect(createHmac("sha256", OPENSSL_SECRET.slice("whsec_".length)).update(body).digest("hex")).not.toBe(hex);
    expect(
      createHmac("sha256", OPENSSL_SECRET)
        .update(JSON.stringify(JSON.parse(body), null, 1))
        .digest("hex"),
    ).not.toBe(hex);
  });

  it.skipIf(!hasOpenssl)("OpenSSL run now agrees on fresh secrets and bodies, and disagrees with a tampered body", () => {
    expect(opensslHmac(OPENSSL_SECRET, OPENSSL_VECTORS[0]![0])).toBe(OPENSSL_VECTORS[0]![1]);
    for (let i = 0; i < 5; i++) {
      const secret = `whsec_${randomBytes(32).toString("base64")}`;
      const body = JSON.stringify({ event: "payment.confirmed", i, note: randomBytes(12).toString("base64"), text: "é ☕" });
      expect(signatureHeader(secret, body)).toBe(opensslHmac(secret, body));
      expect(signatureHeader(secret, body)).not.toBe(opensslHmac(secret, body.replace("payment", "pAyment")));
    }
  });
});

// A real delivery (fan-out → deliverDue → HTTP POST) to a receiver that verifies it the interface's way.
describe("webhook deliveries verified by a receiver written from the interface (real HTTP, real Postgres)", () => {
  const SECRET = `whsec_${randomBytes(32).toString("base64")}`;
  let verify = interfaceVerifier("duebill", SECRET);
  let received: { headers: http.IncomingHttpHeaders; raw: Buffer; status: number }[] = [];
  let base = "";
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const status = verify(req.headers, raw);
      received.push({ headers: req.headers, raw, status });
      res.writeHead(status).end();
    });
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  beforeEach(async () => {
    await resetDb();
    received = [];
  });
  afterEach(() => {
    delete process.env.SERVICE_NAME;
    reloadEnv();
  });

  async function deliverOne(storedSecret: string) {
    const a = await makeIntegrator();
    await db().webhookEndpoint.create({
      data: {
        id: ulid(),
        accountId: a.account.id,
        clientId: a.clientId,
        url: `${base}/hook`,
        secretEnc: encryptSecret(storedSecret),
        active: true,
      },
    });
    const id = ulid();
    const payload = { event: "payment.confirmed", requestId: `01${"cd".repeat(32)}`, amount: "7.25", note: "Café ☕" };
    await db().outboxEvent.create({
      data: {
        id,
        accountId: a.account.id,
        clientId: a.clientId,
        type: "payment.confirmed",
        dedupeKey: `o:${id}`,
        payload: JSON.stringify(payload),
      },
    });
    await fanOutEvents();
    return deliverDue({ allowPrivate: true });
  }

  it("x-duebill-signature passes the interface's check (and OpenSSL's, when installed) on the exact bytes received", async () => {
    verify = interfaceVerifier("duebill", SECRET);
    expect(await deliverOne(SECRET)).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(received).toHaveLength(1);
    const got = received[0]!;
    expect(got.status).toBe(200);
    // The reference's header name carries the same value (x-request-network-signature, Request Network being the reference's service).
    expect(interfaceVerifier("request-network", SECRET)(got.headers, got.raw)).toBe(200);
    if (hasOpenssl) expect(got.headers["x-duebill-signature"]).toBe(opensslHmac(SECRET, got.raw));
  });

  it("the service name stands in the header: SERVICE_NAME=acme sends x-acme-signature", async () => {
    process.env.SERVICE_NAME = "acme";
    reloadEnv();
    verify = interfaceVerifier("acme", SECRET);
    expect(await deliverOne(SECRET)).toMatchObject({ succeeded: 1 });
    expect(received[0]!.headers["x-duebill-signature"]).toBeUndefined();
    expect(received[0]!.status).toBe(200);
  });

  it("the receiver rejects (401) a delivery signed with another secret, and the delivery is not counted as sent", async () => {
    verify = interfaceVerifier("duebill", SECRET);
    const result = await deliverOne(`whsec_${randomBytes(32).toString("base64")}`);
    expect(result).toMatchObject({ claimed: 1, succeeded: 0 });
    expect(received[0]!.status).toBe(401);
    expect((await db().webhookDelivery.findFirstOrThrow()).status).not.toBe("succeeded");
  });
});

// ---------------------------------------------------------------------------------------------
// Tron message signing v2 and addresses, against tronweb

const strip0x = (k: string) => k.replace(/^0x/, "");

/** Computed with tronweb 6.5.1: TronWeb.address.fromPrivateKey(KEY), Trx.signMessageV2(MESSAGE, KEY). */
const TRON_VECTOR = {
  key: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcaf784d7bf4f2ff80",
  address: "THGVBfw7JWFTEo17pWuvrSJbY6Qd2mQzdN",
  message: "Duebill oracle vector",
  signature:
    "0xe6b92715da98ab43aba07e13425a81aae665e2da29db9468c983667ef05c53eb459fc309d9a4284b0c445a7221d43c1e26b884bf4d84c13914f53040984c68681c",
} as const;

const MESSAGES = [
  "localhost:3000 wants you to sign in with your Tron account:\nTQ…\n\nNonce: abc",
  "Zahlung für Café ☕ — 支付",
  "",
  "x".repeat(300),
];

/** Wrong hashes an implementation could plausibly use; the oracle must tell them apart. */
const wrongHashes: Record<string, (m: string) => `0x${string}`> = {
  "the Ethereum prefix": (m) => keccak256(toBytes(`\x19Ethereum Signed Message:\n${toBytes(m).length}${m}`)),
  "a character count instead of a byte count": (m) => keccak256(toBytes(`\x19TRON Signed Message:\n${m.length}${m}`)),
  "no length": (m) => keccak256(toBytes(`\x19TRON Signed Message:\n${m}`)),
};

describe("Tron message signing v2 against tronweb (standing in for TronLink)", () => {
  it("recovers the fixed tronweb vector's signer", async () => {
    expect(hexToTron(privateKeyToAccount(TRON_VECTOR.key).address)).toBe(TRON_VECTOR.address);
    expect(await recoverTronSigner(TRON_VECTOR.message, TRON_VECTOR.signature)).toBe(TRON_VECTOR.address);
    expect(await recoverTronSigner(`${TRON_VECTOR.message}.`, TRON_VECTOR.signature)).not.toBe(TRON_VECTOR.address);
  });

  it.each(MESSAGES)("tronweb's signMessageV2 of %j is recovered to tronweb's address", async (message) => {
    for (let i = 0; i < 3; i++) {
      const key = generatePrivateKey();
      const signature = Trx.signMessageV2(message, strip0x(key)) as `0x${string}`;
      expect(await recoverTronSigner(message, signature)).toBe(TronWeb.address.fromPrivateKey(strip0x(key)));
    }
  });

  it.each(MESSAGES)("a signature over tronMessageHash(%j) verifies with tronweb's verifyMessageV2", async (message) => {
    const key = generatePrivateKey();
    const signature = serializeSignature(await sign({ hash: tronMessageHash(message), privateKey: key }));
    expect(Trx.verifyMessageV2(message, signature)).toBe(TronWeb.address.fromPrivateKey(strip0x(key)));
  });

  it.each(Object.keys(wrongHashes))("the oracle rejects a signature over a Tron hash with %s", async (name) => {
    const message = MESSAGES[1]!; // multibyte: bytes ≠ characters
    const key = generatePrivateKey();
    const wrong = serializeSignature(await sign({ hash: wrongHashes[name]!(message), privateKey: key }));
    expect(Trx.verifyMessageV2(message, wrong)).not.toBe(TronWeb.address.fromPrivateKey(strip0x(key)));
    expect(wrongHashes[name]!(message)).not.toBe(tronMessageHash(message));
  });
});

describe("Tron addresses against tronweb", () => {
  const keys = Array.from({ length: 25 }, () => generatePrivateKey());

  it("hex ↔ base58 agree with TronWeb.address.fromHex / toHex, and both accept them", () => {
    for (const key of keys) {
      const hex = privateKeyToAccount(key).address.toLowerCase();
      const base58 = TronWeb.address.fromHex(`41${hex.slice(2)}`);
      expect(hexToTron(hex)).toBe(base58);
      expect(hexToTron(hex)).toBe(TronWeb.address.fromPrivateKey(strip0x(key)));
      expect(`41${tronToHex(base58).slice(2)}`).toBe(TronWeb.address.toHex(base58).toLowerCase());
      expect(isTronAddress(base58)).toBe(true);
      expect(TronWeb.isAddress(base58)).toBe(true);
    }
  });

  it("a lowercased, uppercased or one-character-changed base58 address is refused by tronweb and by Duebill", () => {
    for (const key of keys.slice(0, 10)) {
      const base58 = TronWeb.address.fromPrivateKey(strip0x(key)) as string;
      const swapped = `${base58.slice(0, 10)}${base58[10] === "a" ? "b" : "a"}${base58.slice(11)}`;
      for (const bad of [base58.toLowerCase(), `T${base58.slice(1).toUpperCase()}`, swapped]) {
        if (bad === base58) continue;
        expect(TronWeb.isAddress(bad), bad).toBe(false);
        expect(isTronAddress(bad), bad).toBe(false);
      }
    }
  });
});

describe("tronweb is a test oracle only", () => {
  it("no file under app/, components/, lib/, scripts/ or proxy.ts imports tronweb (the @tronweb3 wallet adapters are other packages)", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (name === "generated" || name === "node_modules") continue;
        if (statSync(p).isDirectory()) walk(p);
        else if (
          /\.(ts|tsx|mjs|js)$/.test(name) &&
          /from\s+["']tronweb["']|require\(["']tronweb["']\)|import\(["']tronweb["']\)/.test(readFileSync(p, "utf8"))
        )
          offenders.push(path.relative(root, p));
      }
    };
    for (const dir of ["app", "components", "lib", "scripts"]) walk(path.join(root, dir));
    if (/["']tronweb["']/.test(readFileSync(path.join(root, "proxy.ts"), "utf8"))) offenders.push("proxy.ts");
    expect(offenders).toEqual([]);
  });
});
