/**
 * POST /v2/secure-payments/{token}/tron/broadcast relays a signed Tron transaction for a pending
 * Tron link through the configured Tron node API (TronGrid, replayed here), only for calls to the
 * link's token or the Tron ERC20FeeProxy; without a configured node it says what is missing (503).
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as broadcast } from "@/app/v2/secure-payments/[token]/tron/broadcast/route";
import { POST as createPayoutLink } from "@/app/v2/secure-payments/payouts/route";
import { db } from "@/lib/db";
import { reloadEnv } from "@/lib/env";
import { broadcastTronTransaction } from "@/lib/secure-payments/tron-broadcast";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { replayFetch } from "@/tests/helpers/replay-fetch";
import { signedTronTx, TRON_TXID, USDT_TRON } from "@/tests/helpers/tron-tx";

const FEE_PROXY_TRON = "TCUDPYnS9dH3WvFEaE7wN7vnDa51J4R4fd";
const TXID = TRON_TXID;
const signed = signedTronTx;

let a: Awaited<ReturnType<typeof makeIntegrator>>;
let tronToken: string;

beforeAll(async () => {
  await resetDb();
  a = await makeIntegrator();
  const res = await call(createPayoutLink, "/v2/secure-payments/payouts", {
    method: "POST",
    headers: { "x-client-id": a.clientId },
    json: {
      recipient: "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW",
      creatorWalletAddress: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
      network: "tron",
      currency: "USDT-tron",
      amount: "5",
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  tronToken = res.body.token;
});
afterEach(() => {
  delete process.env.TRON_API_URL;
  reloadEnv();
});

const post = (token: string, json: unknown) =>
  call(broadcast, `/v2/secure-payments/${token}/tron/broadcast`, { method: "POST", json, params: { token } });

describe("POST /v2/secure-payments/{token}/tron/broadcast", () => {
  it("without a Tron node API configured: 503 saying what production needs", async () => {
    const res = await post(tronToken, { signedTransaction: signed(USDT_TRON) });
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/TRON_API_URL/);
  });

  it("relays to /wallet/broadcasttransaction, answers the node's result and shows the link processing", async () => {
    process.env.TRON_API_URL = "https://api.trongrid.example";
    reloadEnv();
    const node = replayFetch(() => ({ response: { status: 200, body: { result: true, code: "SUCCESS", txid: TXID } } }));
    const out = await broadcastTronTransaction(tronToken, signed(FEE_PROXY_TRON), node.fetch);
    expect(out).toEqual({ result: true, txid: TXID, code: "SUCCESS", message: "" });
    expect(node.calls[0]!.url.toString()).toBe("https://api.trongrid.example/wallet/broadcasttransaction");
    expect(node.calls[0]!.body).toMatchObject({ txID: TXID, signature: signed(FEE_PROXY_TRON).signature });
    const sp = await db().securePayment.findUniqueOrThrow({ where: { token: tronToken } });
    expect(sp.intentTxHash).toBe(`0x${TXID}`);

    // A refused transaction comes back with the node's code and its hex message decoded.
    const refusing = replayFetch(() => ({
      response: {
        status: 200,
        body: { result: false, code: "SIGERROR", txid: TXID, message: Buffer.from("validate signature error").toString("hex") },
      },
    }));
    expect(await broadcastTronTransaction(tronToken, signed(USDT_TRON), refusing.fetch)).toMatchObject({
      result: false,
      code: "SIGERROR",
      message: "validate signature error",
    });
  });

  it("bad input: another contract, a malformed transaction, an unknown link", async () => {
    const other = await post(tronToken, { signedTransaction: signed("TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8") });
    expect(other.status).toBe(400);
    expect(other.body.errors[0].field).toBe("signedTransaction");
    const malformed = await post(tronToken, { signedTransaction: { ...signed(USDT_TRON), signature: [] } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].field).toMatch(/^signedTransaction\.signature/);
    expect((await post("01NOSUCHTOKEN", { signedTransaction: signed(USDT_TRON) })).status).toBe(404);
  });
});
