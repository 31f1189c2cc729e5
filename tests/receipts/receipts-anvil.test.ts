/**
 * Issue 30, "Done when" (receipts): a payment on the anvil devnet → its signed receipt →
 * `npm run receipt:verify` (the script, spawned: a second implementation that imports nothing from
 * lib/receipts) passes with --rpc against the chain; flipping any one byte of the file fails it;
 * OpenSSL's own Ed25519 (`openssl pkeyutl -verify -rawin`) accepts the signature over the canonical
 * bytes and refuses a flipped byte; a rotation (new signing key first, the old one retired) keeps the
 * old receipt verifying by its key id while new receipts name the new one; a refund gets a receipt
 * too; the webhooks link to them; another account's payment answers 404.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPublicClient, createWalletClient, type PublicClient, http as viemHttp, type WalletClient } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as receiptKeys } from "@/app/api/receipt-keys/route";
import { GET as paymentReceipt } from "@/app/v2/payments/[paymentId]/receipt/route";
import { GET as publicReceipt } from "@/app/v2/receipts/[receiptId]/route";
import { GET as payRequest } from "@/app/v2/request/[requestId]/pay/route";
import { GET as refundReceipt } from "@/app/v2/request/[requestId]/refunds/[refundId]/receipt/route";
import { POST as createRefund } from "@/app/v2/request/[requestId]/refunds/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { env, reloadEnv } from "@/lib/env";
import { receiptForPayment } from "@/lib/receipts/issue";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const dir = mkdtempSync(path.join(tmpdir(), "receipts-"));
let devnet: Devnet;
let pub: PublicClient;
let payerWallet: WalletClient;
let payeeWallet: WalletClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) }) as PublicClient;
  const wallet = (key: `0x${string}`) =>
    createWalletClient({ account: privateKeyToAccount(key), chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) });
  payerWallet = wallet(devnet.accounts.payer.privateKey);
  payeeWallet = wallet(devnet.accounts.payee.privateKey);
}, 60_000);

afterAll(() => stopDevnet(devnet));

beforeEach(async () => {
  delete process.env.RECEIPT_SIGNING_KEYS;
  delete process.env.RECEIPT_RETIRED_KEYS;
  reloadEnv();
  await resetDb();
  a = await makeIntegrator();
});

type Tx = { to: `0x${string}`; data: `0x${string}`; value: { hex: `0x${string}` } };
async function sendAll(wallet: WalletClient, txs: Tx[]): Promise<void> {
  for (const tx of txs) {
    const hash = await wallet.sendTransaction({
      account: wallet.account!,
      chain: devnet.chain,
      to: tx.to,
      data: tx.data,
      value: BigInt(tx.value.hex),
    });
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe("success");
  }
}
const headers = () => ({ "x-api-key": a.apiKey });
const sweep = () => sweepDetectionNetwork(evmEventSource("sepolia")!);

/** A request with a 1% fee paid from the payer's wallet with GET /pay's calldata, recorded by detection. */
async function paidRequest(amount = "10"): Promise<{ requestId: string; paymentId: string }> {
  const created = await call(createRequest, "/v2/request", {
    method: "POST",
    headers: headers(),
    json: {
      amount,
      invoiceCurrency: "USDC-sepolia",
      paymentCurrency: "USDC-sepolia",
      payee: devnet.accounts.payee.address,
      feePercentage: "1",
      feeAddress: devnet.accounts.feeRecipient.address,
      reference: "ORDER-42",
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const requestId = created.body.requestId as string;
  const pay = await call(payRequest, `/v2/request/${requestId}/pay?wallet=${devnet.accounts.payer.address}`, {
    headers: headers(),
    params: { requestId },
  });
  await sendAll(payerWallet, pay.body.transactions);
  expect((await sweep()).recorded).toBe(1);
  const payment = await db().payment.findFirstOrThrow({ where: { requestId } });
  return { requestId, paymentId: payment.id };
}

/** The published key set, as the well-known URL serves it, saved to a file for --keys. */
async function saveKeys(name: string): Promise<string> {
  const res = receiptKeys();
  expect(res.status).toBe(200);
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  const file = path.join(dir, name);
  writeFileSync(file, await res.text());
  return file;
}

function verifyCli(file: string, keys: string, rpc?: string): { code: number; out: string } {
  const args = [path.join(ROOT, "scripts/receipts/verify.ts"), file, "--keys", keys, ...(rpc ? ["--rpc", rpc] : [])];
  const r = spawnSync(TSX, args, { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

describe("receipts of payments on anvil", () => {
  it("payment → receipt (webhook links it) → receipt:verify with --rpc passes; any flipped byte fails; openssl agrees", async () => {
    const { requestId, paymentId } = await paidRequest();
    // Issued by detection with payment.confirmed, which links to it.
    const row = await db().receipt.findUniqueOrThrow({ where: { paymentId } });
    const event = await db().outboxEvent.findFirstOrThrow({ where: { type: "payment.confirmed" } });
    const body = JSON.parse(event.payload);
    expect(body.receiptUrl).toBe(`${env().APP_URL.replace(/\/$/, "")}/v2/receipts/${row.id}`);
    expect(Object.keys(body).at(-1)).toBe("receiptUrl");

    // The API serves it to its account; another account gets the 404 of an unknown payment.
    const own = await call(paymentReceipt, `/v2/payments/${paymentId}/receipt`, { headers: headers(), params: { paymentId } });
    expect(own.status).toBe(200);
    const other = await makeIntegrator();
    const theirs = await call(paymentReceipt, `/v2/payments/${paymentId}/receipt`, {
      headers: { "x-api-key": other.apiKey },
      params: { paymentId },
    });
    expect(theirs.status).toBe(404);
    const signed = own.body;
    expect(signed.receipt).toMatchObject({
      id: row.id,
      kind: "payment",
      request: { requestId, reference: "ORDER-42", amount: "10", payee: devnet.accounts.payee.address, feePercentage: "1" },
      transfer: {
        amount: "10000000",
        amountDecimal: "10",
        feeAmount: "100000",
        feeAmountDecimal: "0.1",
        token: { symbol: "USDC", decimals: 6 },
      },
    });
    expect(signed.receipt.transfer.confirmations).toBeGreaterThanOrEqual(1);

    // The public JSON: the same receipt, any origin, cacheable, downloadable.
    const open = await call(publicReceipt, `/v2/receipts/${row.id}?download=1`, { params: { receiptId: row.id } });
    expect(open.status).toBe(200);
    expect(open.body).toEqual(signed);
    expect(open.headers.get("access-control-allow-origin")).toBe("*");
    expect(open.headers.get("cache-control")).toContain("public");
    expect(open.headers.get("content-disposition")).toContain(`receipt-${row.id}.json`);

    const file = path.join(dir, "receipt.json");
    writeFileSync(file, JSON.stringify(signed, null, 2));
    const keys = await saveKeys("keys.json");
    const ok = verifyCli(file, keys, devnet.rpcUrl);
    expect(ok.out).toContain("valid: signature");
    expect(ok.out).toContain("valid: event: TransferWithReferenceAndFee");
    expect(ok.code, ok.out).toBe(0);

    // Any one byte changed fails: the amount's first digit, the signature, the block hash, and bytes spread over the file.
    const bytes = readFileSync(file);
    const text = bytes.toString("utf8");
    const named = ['"amount": "', '"value": "', '"blockHash": "', '"name": "', '"logIndex": '].map((k) => text.indexOf(k) + k.length + 2);
    const spread = Array.from({ length: 8 }, (_, i) => Math.floor(((i + 0.5) * bytes.length) / 8));
    for (const at of [...named, ...spread]) {
      const copy = Buffer.from(bytes);
      copy[at] = copy[at]! ^ 0x01;
      const bad = path.join(dir, `flipped-${at}.json`);
      writeFileSync(bad, copy);
      const r = verifyCli(bad, keys);
      expect(r.code, `byte ${at} (${JSON.stringify(text.slice(at - 10, at + 10))}): ${r.out}`).toBe(1);
      expect(r.out).toMatch(/^INVALID: (signature|file|format|reference|amounts|canonical form): /m);
    }

    // OpenSSL verifies the same signature over the canonical bytes with the published public key.
    const jwk = JSON.parse(readFileSync(keys, "utf8")).keys.find((k: { kid: string }) => k.kid === signed.signature.keyId);
    const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), Buffer.from(jwk.x, "base64url")]);
    writeFileSync(path.join(dir, "pub.pem"), `-----BEGIN PUBLIC KEY-----\n${spki.toString("base64")}\n-----END PUBLIC KEY-----\n`);
    writeFileSync(path.join(dir, "sig.bin"), Buffer.from(signed.signature.value, "base64url"));
    writeFileSync(path.join(dir, "canonical.bin"), row.payload);
    const openssl = (input: string) =>
      spawnSync("openssl", ["pkeyutl", "-verify", "-pubin", "-inkey", "pub.pem", "-rawin", "-sigfile", "sig.bin", "-in", input], {
        cwd: dir,
        encoding: "utf8",
      });
    const good = openssl("canonical.bin");
    expect(good.stdout).toContain("Signature Verified Successfully");
    expect(good.status).toBe(0);
    const canonical = Buffer.from(row.payload);
    canonical[40] = canonical[40]! ^ 0x01;
    writeFileSync(path.join(dir, "canonical-flipped.bin"), canonical);
    const flipped = openssl("canonical-flipped.bin");
    expect(flipped.status).not.toBe(0);
    expect(`${flipped.stdout}${flipped.stderr}`).toContain("Signature Verification Failure");

    // A receipt whose log index is changed fails (the signature first; the chain check would too).
    const wrongLog = {
      ...signed,
      receipt: { ...signed.receipt, transfer: { ...signed.receipt.transfer, logIndex: signed.receipt.transfer.logIndex + 1 } },
    };
    writeFileSync(path.join(dir, "wrong-log.json"), JSON.stringify(wrongLog));
    expect(verifyCli(path.join(dir, "wrong-log.json"), keys, devnet.rpcUrl).code).toBe(1);
  }, 180_000);

  it("rotation: the old receipt still verifies by its key id (retired); new receipts name the new key", async () => {
    const first = await paidRequest("3");
    const old = (await receiptForPayment(first.paymentId))!;
    const oldKid = old.signed.signature.keyId;
    const oldJwk = JSON.parse(await receiptKeys().text()).keys[0];
    expect(oldJwk).toMatchObject({ kty: "OKP", crv: "Ed25519", kid: oldKid, use: "sig", status: "active" });

    // The operator rotates: a new key (made by OpenSSL) signs, the old one is published as retired.
    execFileSync("openssl", ["genpkey", "-algorithm", "ed25519", "-out", path.join(dir, "new.pem")]);
    process.env.RECEIPT_SIGNING_KEYS = JSON.stringify([
      { keyId: "rk_2026_11", privateKey: readFileSync(path.join(dir, "new.pem"), "utf8") },
    ]);
    process.env.RECEIPT_RETIRED_KEYS = JSON.stringify([{ keyId: oldKid, publicKey: oldJwk.x, retiredAt: "2026-11-29T00:00:00Z" }]);
    reloadEnv();
    const keys = await saveKeys("rotated-keys.json");
    expect(JSON.parse(readFileSync(keys, "utf8")).keys.map((k: { kid: string; status: string }) => [k.kid, k.status])).toEqual([
      ["rk_2026_11", "active"],
      [oldKid, "retired"],
    ]);

    const oldFile = path.join(dir, "old.json");
    writeFileSync(oldFile, JSON.stringify(old.signed));
    const r1 = verifyCli(oldFile, keys, devnet.rpcUrl);
    expect(r1.out).toContain(`key ${oldKid}, retired`);
    expect(r1.code, r1.out).toBe(0);

    const second = await paidRequest("4");
    const fresh = (await receiptForPayment(second.paymentId))!;
    expect(fresh.signed.signature.keyId).toBe("rk_2026_11");
    const newFile = path.join(dir, "new.json");
    writeFileSync(newFile, JSON.stringify(fresh.signed));
    const r2 = verifyCli(newFile, keys, devnet.rpcUrl);
    expect(r2.code, r2.out).toBe(0);
    // The new key does not vouch for the old receipt under another id: relabelled, it fails.
    writeFileSync(oldFile, JSON.stringify({ ...old.signed, signature: { ...old.signed.signature, keyId: "rk_2026_11" } }));
    expect(verifyCli(oldFile, keys).code).toBe(1);
  }, 180_000);

  it("a confirmed refund gets a receipt (payment.refunded links it) that verifies on chain; concurrent reads issue one", async () => {
    const { requestId, paymentId } = await paidRequest("10");
    const prepared = await call(createRefund, `/v2/request/${requestId}/refunds`, {
      method: "POST",
      headers: headers(),
      params: { requestId },
      json: { amount: "4" },
    });
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(201);
    const refundId = prepared.body.refund.id as string;
    const before = await call(refundReceipt, "/", { headers: headers(), params: { requestId, refundId } });
    expect(before.status).toBe(404);
    await sendAll(payeeWallet, prepared.body.transactions);
    expect((await sweep()).recorded).toBe(1);

    const event = await db().outboxEvent.findFirstOrThrow({ where: { type: "payment.refunded" } });
    const got = await call(refundReceipt, "/", { headers: headers(), params: { requestId, refundId } });
    expect(got.status).toBe(200);
    expect(JSON.parse(event.payload).receiptUrl).toMatch(new RegExp(`/v2/receipts/${got.body.receipt.id}$`));
    expect(got.body.receipt).toMatchObject({
      kind: "refund",
      refund: { refundId },
      transfer: { amount: "4000000", to: devnet.accounts.payer.address },
    });
    const other = await makeIntegrator();
    expect((await call(refundReceipt, "/", { headers: { "x-api-key": other.apiKey }, params: { requestId, refundId } })).status).toBe(404);
    const file = path.join(dir, "refund.json");
    writeFileSync(file, JSON.stringify(got.body));
    const r = verifyCli(file, await saveKeys("refund-keys.json"), devnet.rpcUrl);
    expect(r.code, r.out).toBe(0);

    // A payment recorded before receipts existed: issued on first read, once, however many read at once.
    await db().receipt.deleteMany({ where: { paymentId } });
    const many = await Promise.all(Array.from({ length: 6 }, () => receiptForPayment(paymentId)));
    expect(new Set(many.map((m) => m!.id)).size).toBe(1);
    expect(await db().receipt.count({ where: { paymentId } })).toBe(1);
    expect(await receiptForPayment("01NOSUCHPAYMENT0000000000")).toBeNull();
  }, 180_000);
});
