import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { db } from "@/lib/db";
import { eventSources, sweepDetectionNetwork } from "@/lib/detection/sweep";
import { TronGridError, TronGridEventSource } from "@/lib/detection/tron-source";
import type { PaymentEventSource } from "@/lib/detection/types";
import { reloadEnv } from "@/lib/env";
import { referenceTopic } from "@/lib/payments/reference";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { fixture, type RecordedExchange, replayFetch, type SentRequest } from "@/tests/helpers/replay-fetch";

const PROXY = "TCUDPYnS9dH3WvFEaE7wN7vnDa51J4R4fd";
const PAYEE = "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW";
const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const USDC = "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8";
const TX1 = "7c2f4a9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f5a";
const TX2 = "e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6";
const ts = (n: number) => 1764000000000 + (n - 79500000) * 3000;
const tg = (name: string) => fixture("trongrid", name);

/** A TronGrid-like server over the recorded answers: blocks by number, events page by fingerprint, transactions by id. */
function trongrid(
  events: (req: SentRequest) => RecordedExchange = (req) => tg(req.url.searchParams.has("fingerprint") ? "events-page-2" : "events-page-1"),
) {
  return (req: SentRequest): RecordedExchange => {
    const p = req.url.pathname;
    if (p === "/wallet/getnowblock") return tg("getnowblock");
    if (p === "/wallet/getblockbynum") {
      const n = (req.body as { num: number }).num;
      return [79500001, 79500010, 79500055, 79500100].includes(n) ? tg(`getblockbynum-${n}`) : tg("getblockbynum-missing");
    }
    if (p === "/wallet/gettransactionbyid") return tg(`gettransactionbyid-${(req.body as { value: string }).value}`);
    if (p === `/v1/contracts/${PROXY}/events`) return events(req);
    throw new Error(`unexpected request ${req.method} ${req.url}`);
  };
}

function source(answer: Parameters<typeof replayFetch>[0], opts: { apiKey?: string; maxRetries?: number } = { apiKey: "tg-key" }) {
  const r = replayFetch(answer);
  const sleeps: number[] = [];
  const s = new TronGridEventSource({
    baseUrl: "https://api.trongrid.io",
    apiKey: opts.apiKey,
    fetch: r.fetch,
    proxyAddress: PROXY,
    confirmations: 19,
    creationBlock: 79216121n,
    initialLookback: 5000n,
    maxRetries: opts.maxRetries,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  return { s, calls: r.calls, sleeps };
}

describe("TronGrid event source: requests and mapping", () => {
  it("finalizedHead is getnowblock's number minus the confirmations, asked with the API key header", async () => {
    const { s, calls } = source(trongrid());
    expect(await s.finalizedHead()).toBe(79500100n);
    expect(calls[0]!.method).toBe("GET");
    expect(calls[0]!.url.toString()).toBe("https://api.trongrid.io/wallet/getnowblock");
    expect(calls[0]!.headers.get("TRON-PRO-API-KEY")).toBe("tg-key");
    expect(await s.startBlock(79500100n)).toBe(79495100n);
    expect(await s.startBlock(79216200n)).toBe(79216121n);
  });

  it("asks the proxy's events in the blocks' time window, confirmed only, and follows the fingerprint with identical filters", async () => {
    const { s, calls } = source(trongrid());
    await s.transfers(79500001n, 79500100n);
    const blockCalls = calls.filter((c) => c.url.pathname === "/wallet/getblockbynum");
    expect(blockCalls.map((c) => c.method)).toEqual(["POST", "POST", "POST", "POST"]);
    expect(blockCalls.map((c) => (c.body as { num: number }).num).sort()).toEqual([79500001, 79500010, 79500055, 79500100]);
    const pages = calls.filter((c) => c.url.pathname.endsWith("/events"));
    expect(pages).toHaveLength(2);
    const filters = {
      event_name: "TransferWithReferenceAndFee",
      only_confirmed: "true",
      min_block_timestamp: String(ts(79500001) - 1),
      max_block_timestamp: String(ts(79500100) + 1),
      order_by: "block_timestamp,asc",
      limit: "200",
    };
    expect(pages[0]!.url.pathname).toBe(`/v1/contracts/${PROXY}/events`);
    expect(Object.fromEntries(pages[0]!.url.searchParams)).toEqual(filters);
    expect(Object.fromEntries(pages[1]!.url.searchParams)).toEqual({ ...filters, fingerprint: "2a8fQ7dP3Yb6mN1kR9sT4vW0xZ5cE8gH" });
    expect(pages.every((p) => p.headers.get("TRON-PRO-API-KEY") === "tg-key")).toBe(true);
    const txCalls = calls.filter((c) => c.url.pathname === "/wallet/gettransactionbyid");
    expect(txCalls.map((c) => c.body)).toEqual([
      { value: TX1, visible: true },
      { value: TX2, visible: true },
    ]);
  });

  it("maps events by argument name: hex addresses → base58, reference hash 0x-prefixed, zero fee address → null, sender from the transaction", async () => {
    const { s } = source(trongrid());
    const events = await s.transfers(79500001n, 79500100n);
    const blockHash = (tg("getblockbynum-79500010").response.body as { blockID: string }).blockID;
    // The event of block 79500101 (inside the widened time window, outside the block range) is dropped.
    expect(events).toEqual([
      {
        txHash: TX1,
        logIndex: 2,
        blockNumber: 79500010n,
        blockHash,
        blockTime: new Date(ts(79500010)),
        proxyAddress: PROXY,
        tokenAddress: USDT,
        to: PAYEE,
        amount: 10_000_000n,
        referenceHash: "0x0c3d72390ac0ce0233c551a3c5278f8625ba996f5985dc8d612a9fc55f1de15a",
        feeAmount: 0n,
        feeAddress: null,
        from: "TXmVpin5vq5gdZsciyyjdZgKRUju4st1wM",
        txTo: PROXY,
      },
      {
        txHash: TX2,
        logIndex: 0,
        blockNumber: 79500055n,
        blockHash: (tg("getblockbynum-79500055").response.body as { blockID: string }).blockID,
        blockTime: new Date(ts(79500055)),
        proxyAddress: PROXY,
        tokenAddress: USDC,
        to: PAYEE,
        amount: 2_500_000n,
        referenceHash: "0x663c54a17838512d92f77320980bd59fb1af119d373ced59a94064368f7cb0e3",
        feeAmount: 25_000n,
        feeAddress: "TP2C5QFBzXBYRFMAiKFae3NHajoYsfib3b",
        from: "TH7vsz54d1egNexwWsFPbdUiotbt9GDKpo",
        txTo: PROXY,
      },
    ]);
    expect(events[0]!.referenceHash).toBe(referenceTopic("0x0123456789abcdef"));
  });

  it("blockHash(n) is the block's blockID, null for a block the chain does not have; no key header without a key", async () => {
    const { s, calls } = source(trongrid(), { apiKey: undefined });
    expect(await s.blockHash(79500100n)).toBe((tg("getblockbynum-79500100").response.body as { blockID: string }).blockID);
    expect(await s.blockHash(99999999n)).toBeNull();
    expect(calls[0]!.headers.has("TRON-PRO-API-KEY")).toBe(false);
  });
});

describe("TronGrid event source: rate limits and failures", () => {
  it("backs off on 429 (Retry-After) and 403, then succeeds", async () => {
    let pageCalls = 0;
    const { s, sleeps } = source(
      trongrid((_req) => {
        const n = pageCalls++;
        return n === 0 ? tg("rate-limited-429") : n === 1 ? tg("rate-limited-403") : tg("events-empty");
      }),
    );
    expect(await s.transfers(79500001n, 79500100n)).toEqual([]);
    expect(pageCalls).toBe(3);
    expect(sleeps).toEqual([2000, 2000]);
  });

  it("gives up after a bounded number of attempts with a clear rate-limit error", async () => {
    let pageCalls = 0;
    const { s } = source(
      trongrid(() => {
        pageCalls++;
        return tg("rate-limited-403");
      }),
      { apiKey: "tg-key", maxRetries: 3 },
    );
    const err = await s.transfers(79500001n, 79500100n).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TronGridError);
    expect(err).toMatchObject({
      rateLimited: true,
      message: `TronGrid v1/contracts/${PROXY}/events failed after 4 attempts: rate limited (HTTP 403: The key exceeds the frequency limit(15), and the query server is suspended for 30s)`,
    });
    expect(pageCalls).toBe(4);
  });

  it("treats a node's 200 'lack of computing resources' as a rate limit, and retries a 502", async () => {
    const answers = [tg("node-lack-of-resources"), tg("server-error-502"), tg("getnowblock")];
    const { s, sleeps } = source((req) => {
      expect(req.url.pathname).toBe("/wallet/getnowblock");
      return answers.shift()!;
    });
    expect(await s.finalizedHead()).toBe(79500100n);
    expect(sleeps).toEqual([1000, 2000]);
  });
});

describe("TronGrid event source in the detection sweep", () => {
  let a: Awaited<ReturnType<typeof makeIntegrator>>;
  beforeEach(async () => {
    await resetDb();
    a = await makeIntegrator();
  });
  afterEach(() => {
    delete process.env.TRON_API_URL;
    delete process.env.TRON_API_KEY;
    reloadEnv();
  });

  it("is a detection source when TRON_API_URL is set; a test's extra source still replaces it", () => {
    expect(eventSources().some((s) => s.network === "tron")).toBe(false);
    process.env.TRON_API_URL = "https://api.trongrid.io";
    process.env.TRON_API_KEY = "tg-key";
    reloadEnv();
    expect(eventSources().find((s) => s.network === "tron")).toBeInstanceOf(TronGridEventSource);
    const fake: PaymentEventSource = {
      network: "tron",
      finalizedHead: async () => 0n,
      startBlock: async () => 0n,
      transfers: async () => [],
    };
    expect(eventSources([fake]).find((s) => s.network === "tron")).toBe(fake);
  });

  it("records a Tron payment from the replayed API and keeps the cursor when the API stays rate limited", async () => {
    const res = await call(createPayout, "/v2/payouts", {
      method: "POST",
      headers: { "x-api-key": a.apiKey },
      json: { payee: PAYEE, amount: "10", invoiceCurrency: "USDT-tron", paymentCurrency: "USDT-tron" },
    });
    expect(res.status).toBe(201);
    const { requestId, paymentReference } = res.body as { requestId: string; paymentReference: string };
    // The recorded event, carrying this request's reference hash (without 0x, as TronGrid may render it).
    const page1 = structuredClone(tg("events-page-1"));
    const ev = (page1.response.body as { data: { result: Record<string, string> }[] }).data[0]!;
    ev.result.paymentReference = ev.result["3"] = referenceTopic(paymentReference).slice(2);
    await db().chainCursor.create({ data: { network: "tron", lastBlock: 79500000n, lastBlockHash: null } });

    let limited = true;
    const { s } = source(
      trongrid((req) => (limited ? tg("rate-limited-429") : req.url.searchParams.has("fingerprint") ? tg("events-page-2") : page1)),
      { apiKey: "tg-key", maxRetries: 1 },
    );
    await expect(sweepDetectionNetwork(s)).rejects.toBeInstanceOf(TronGridError);
    expect((await db().chainCursor.findUniqueOrThrow({ where: { network: "tron" } })).lastBlock).toBe(79500000n);

    limited = false;
    const r = await sweepDetectionNetwork(s);
    expect(r).toMatchObject({ fromBlock: "79500001", toBlock: "79500100", events: 2, recorded: 1 });
    const row = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
    expect(row.status).toBe("paid");
    const payment = await db().payment.findFirstOrThrow({ where: { requestId } });
    expect(payment).toMatchObject({
      txHash: TX1,
      logIndex: 2,
      payer: "TXmVpin5vq5gdZsciyyjdZgKRUju4st1wM",
      payee: PAYEE,
      tokenAddress: USDT,
    });
    const cursor = await db().chainCursor.findUniqueOrThrow({ where: { network: "tron" } });
    expect(cursor).toMatchObject({
      lastBlock: 79500100n,
      lastBlockHash: (tg("getblockbynum-79500100").response.body as { blockID: string }).blockID,
    });
  });
});
