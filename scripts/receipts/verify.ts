/**
 * `npm run receipt:verify -- receipt.json [--rpc URL] [--keys URL|file]`: checks a Duebill receipt
 * without trusting Duebill's code. This is a second implementation of docs/guides/receipts.md
 * "Verifying a receipt" (it imports nothing from lib/): RFC 8785 canonical JSON written out here,
 * Ed25519 with node:crypto, keccak256 and the log decoding with viem.
 *
 * 1. signature: the key `signature.keyId` from the key set (--keys, else issuer.url +
 *    /.well-known/duebill-receipt-keys.json) verifies `signature.value` over the canonical bytes of `receipt`;
 * 2. reference: referenceDerivation recomputes the payment (or refund) reference the receipt states;
 * 3. with --rpc (EVM): the transaction's receipt holds, at `logIndex`, the TransferWithReferenceAndFee event
 *    of `emitter` in block `blockNumber`/`blockHash`, with the token, recipient, amount, fee and reference
 *    topic the receipt states (and a conversion payment's TransferWithConversionAndReference its invoice amount).
 * Prints one "valid: …" line per check and exits 0; exits 1 at the first failed check, naming it.
 */
import { createPublicKey, type JsonWebKey, verify } from "node:crypto";
import { readFileSync } from "node:fs";
import { createPublicClient, decodeEventLog, formatUnits, http, keccak256, parseAbi, toBytes, toHex } from "viem";

class CheckFailed extends Error {
  constructor(
    readonly check: string,
    message: string,
  ) {
    super(message);
  }
}
const fail = (check: string, message: string): never => {
  throw new CheckFailed(check, message);
};

// ---- RFC 8785 (JCS), written from the RFC -------------------------------------------------------
function jcsString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) fail("canonical form", "a string holds a lone surrogate");
      out += s[i]! + s[i + 1]!;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) fail("canonical form", "a string holds a lone surrogate");
    else if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c === 0x08) out += "\\b";
    else if (c === 0x09) out += "\\t";
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x0c) out += "\\f";
    else if (c === 0x0d) out += "\\r";
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += s[i];
  }
  return `${out}"`;
}

/** Member names compared as arrays of UTF-16 code units (RFC 8785 §3.2.3). */
function byCodeUnits(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

export function jcs(v: unknown): string {
  if (v === null) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "string") return jcsString(v);
  if (typeof v === "number") {
    if (!Number.isFinite(v)) fail("canonical form", "a number is not finite");
    return Object.is(v, -0) ? "0" : String(v); // ECMAScript Number::toString (RFC 8785 §3.2.2.3)
  }
  if (Array.isArray(v)) return `[${v.map(jcs).join(",")}]`;
  if (typeof v === "object") {
    const keys = Object.keys(v as object).sort(byCodeUnits);
    return `{${keys.map((k) => `${jcsString(k)}:${jcs((v as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return fail("canonical form", `a ${typeof v} has no JSON form`);
}

// ---- the checks ---------------------------------------------------------------------------------
// biome-ignore lint/suspicious/noExplicitAny: a receipt read from a file, checked field by field below
type Json = Record<string, any>;

async function loadKeys(where: string): Promise<{ keys: Json[] }> {
  try {
    if (/^https?:\/\//.test(where)) {
      const res = await fetch(where);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return (await res.json()) as { keys: Json[] };
    }
    return JSON.parse(readFileSync(where, "utf8"));
  } catch (err) {
    return fail("keys", `cannot read the key set at ${where}: ${err instanceof Error ? err.message : err}`);
  }
}

function checkSignature(doc: Json, keySet: { keys: Json[] }): string {
  const sig = doc.signature;
  if (sig?.alg !== "Ed25519") fail("signature", "signature.alg is not Ed25519");
  const jwk = keySet.keys?.find((k) => k.kid === sig.keyId) ?? fail("signature", `the key set has no key with kid ${sig.keyId}`);
  if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519") fail("signature", `key ${sig.keyId} is not an Ed25519 OKP key`);
  const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: jwk.x } as JsonWebKey, format: "jwk" });
  const value = Buffer.from(String(sig.value), "base64url");
  if (value.length !== 64) fail("signature", "signature.value is not 64 bytes of base64url");
  const message = Buffer.from(jcs(doc.receipt), "utf8");
  if (!verify(null, message, key, value)) fail("signature", `the signature does not verify with key ${sig.keyId}`);
  return `signature (Ed25519, key ${sig.keyId}, ${jwk.status ?? "active"})`;
}

function checkReference(r: Json): string {
  const d = r.referenceDerivation;
  const { requestId, salt, paymentAddress } = d?.inputs ?? {};
  if (![requestId, salt, paymentAddress].every((x) => typeof x === "string"))
    fail("reference", "referenceDerivation.inputs lacks requestId, salt or paymentAddress");
  const computed = `0x${keccak256(toHex(`${requestId}${salt}${paymentAddress}`.toLowerCase())).slice(-16)}`;
  if (computed !== String(d.paymentReference).toLowerCase())
    fail("reference", `recomputed ${computed}, the receipt states ${d.paymentReference}`);
  const stated = r.kind === "refund" ? r.refund?.refundReference : r.request?.paymentReference;
  if (computed !== String(stated).toLowerCase())
    fail("reference", `recomputed ${computed}, the receipt's ${r.kind} reference is ${stated}`);
  if (requestId !== r.request?.requestId) fail("reference", "referenceDerivation names another request than request.requestId");
  return `reference ${computed} = last 8 bytes of keccak256(lowercase(requestId + salt + ${r.kind === "refund" ? "refund address" : "payee"}))`;
}

function checkAmounts(t: Json): string {
  for (const [units, decimal] of [
    ["amount", "amountDecimal"],
    ["feeAmount", "feeAmountDecimal"],
  ] as const) {
    if (!/^\d+$/.test(t[units])) fail("amounts", `transfer.${units} is not an integer`);
    if (formatUnits(BigInt(t[units]), t.token.decimals) !== t[decimal])
      fail("amounts", `transfer.${decimal} is not transfer.${units} at ${t.token.decimals} decimals`);
  }
  return `amounts ${t.amountDecimal} ${t.token.symbol} (fee ${t.feeAmountDecimal})`;
}

const TRANSFER = parseAbi([
  "event TransferWithReferenceAndFee(address tokenAddress, address to, uint256 amount, bytes indexed paymentReference, uint256 feeAmount, address feeAddress)",
]);
const CONVERSION = parseAbi([
  "event TransferWithConversionAndReference(uint256 amount, address currency, bytes indexed paymentReference, uint256 feeAmount, uint256 maxRateTimespan)",
]);
const same = (a: unknown, b: unknown) => String(a).toLowerCase() === String(b).toLowerCase();
const ZERO = "0x0000000000000000000000000000000000000000";

async function checkChain(r: Json, rpc: string): Promise<string[]> {
  const t = r.transfer;
  const client = createPublicClient({ transport: http(rpc) });
  if (t.chainId !== null && (await client.getChainId()) !== t.chainId) fail("chain", `the RPC serves another chain than ${t.chainId}`);
  const tx = await client.getTransactionReceipt({ hash: t.txHash }).catch(() => fail("chain", `no transaction ${t.txHash} on this RPC`));
  if (tx.status !== "success") fail("chain", "the transaction reverted");
  if (tx.blockHash.toLowerCase() !== String(t.blockHash).toLowerCase())
    fail("block", `the transaction is in block ${tx.blockHash}, not ${t.blockHash}`);
  if (tx.blockNumber.toString() !== t.blockNumber) fail("block", `the transaction is in block ${tx.blockNumber}, not ${t.blockNumber}`);
  const block = await client.getBlock({ blockHash: t.blockHash });
  if (new Date(Number(block.timestamp) * 1000).toISOString() !== t.blockTime)
    fail("block", `block time ${block.timestamp} is not ${t.blockTime}`);
  const log = tx.logs.find((l) => l.logIndex === t.logIndex);
  if (!log) fail("event", `the transaction has no log at index ${t.logIndex}`);
  if (!same(log!.address, t.emitter)) fail("event", `log ${t.logIndex} was emitted by ${log!.address}, not ${t.emitter}`);
  let ev: ReturnType<typeof decodeEventLog<typeof TRANSFER>>;
  try {
    ev = decodeEventLog({ abi: TRANSFER, data: log!.data, topics: log!.topics });
  } catch {
    return fail("event", `log ${t.logIndex} is not a ${t.event} event`);
  }
  const a = ev.args;
  const topic = keccak256(toBytes(r.referenceDerivation.paymentReference));
  if (!same(a.paymentReference, topic))
    fail("event", `the event's reference topic ${a.paymentReference} is not keccak256(${r.referenceDerivation.paymentReference})`);
  if (!same(a.tokenAddress, t.token.address)) fail("event", `token ${a.tokenAddress}, not ${t.token.address}`);
  if (!same(a.to, t.to)) fail("event", `recipient ${a.to}, not ${t.to}`);
  if (a.amount.toString() !== t.amount) fail("event", `amount ${a.amount}, not ${t.amount}`);
  if (a.feeAmount.toString() !== t.feeAmount) fail("event", `fee ${a.feeAmount}, not ${t.feeAmount}`);
  if (!same(a.feeAddress, t.feeAddress ?? ZERO) && !(t.feeAddress === null && same(a.feeAddress, ZERO)))
    fail("event", `fee address ${a.feeAddress}, not ${t.feeAddress}`);
  const out = [
    `chain: transaction ${t.txHash} succeeded in block ${t.blockNumber} (${t.blockHash})`,
    `event: ${t.event} at log ${t.logIndex} of ${t.emitter}: ${t.amount} of ${t.token.address} to ${t.to}, fee ${t.feeAmount}, reference topic ${topic}`,
  ];
  if (t.invoiceAmount !== null) {
    // A conversion payment: the proxy's TransferWithConversionAndReference after it, same reference, holds the invoice amount (8 decimals).
    const conv = tx.logs
      .filter((l) => l.logIndex > t.logIndex && same(l.address, t.emitter))
      .map((l) => {
        try {
          return decodeEventLog({ abi: CONVERSION, data: l.data, topics: l.topics }).args;
        } catch {
          return null;
        }
      })
      .find((x) => x && same(x.paymentReference, topic));
    if (!conv) fail("event", "no TransferWithConversionAndReference follows the transfer");
    if (formatUnits(conv!.amount, 8) !== t.invoiceAmount)
      fail("event", `invoice amount ${formatUnits(conv!.amount, 8)}, not ${t.invoiceAmount}`);
    out.push(`conversion: ${t.invoiceAmount} ${r.request.invoiceCurrency} credited`);
  }
  return out;
}

async function main(argv: string[]): Promise<number> {
  const args = [...argv];
  const opt = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const v = args[i + 1];
    args.splice(i, 2);
    return v;
  };
  const rpc = opt("--rpc");
  const keysAt = opt("--keys");
  const file = args[0];
  if (!file) {
    console.error("usage: npm run receipt:verify -- receipt.json [--rpc URL] [--keys URL|file]");
    return 2;
  }
  try {
    let doc: Json;
    try {
      doc = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      return fail("file", `${file} is not a JSON file: ${err instanceof Error ? err.message : err}`);
    }
    const r = doc.receipt;
    if (r?.version !== "duebill.receipt.v1") fail("format", "not a duebill.receipt.v1 receipt");
    const keySet = await loadKeys(keysAt ?? `${String(r.issuer.url).replace(/\/$/, "")}/.well-known/duebill-receipt-keys.json`);
    const lines = [checkSignature(doc, keySet), checkReference(r), checkAmounts(r.transfer)];
    if (rpc) {
      if (r.transfer.network === "tron")
        fail("chain", "--rpc checks EVM networks; a Tron receipt is checked against TronGrid by hand (docs/guides/receipts.md)");
      lines.push(...(await checkChain(r, rpc)));
    }
    for (const l of lines) console.log(`valid: ${l}`);
    console.log(`valid: receipt ${r.id}${rpc ? "" : " (on-chain checks skipped: no --rpc)"}`);
    return 0;
  } catch (err) {
    if (err instanceof CheckFailed) {
      console.log(`INVALID: ${err.check}: ${err.message}`);
      return 1;
    }
    console.log(`INVALID: error: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
    return 1;
  }
}

if (process.argv[1] && /verify\.ts$/.test(process.argv[1])) main(process.argv.slice(2)).then((code) => process.exit(code));
