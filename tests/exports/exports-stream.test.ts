import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/v2/exports/[kind]/route";
import { db } from "@/lib/db";
import { parseExportFilters } from "@/lib/exports/filters";
import { type BatchSource, exportSource } from "@/lib/exports/sources";
import { EXPORT_BATCH, exportStream } from "@/lib/exports/stream";
import { parseRfc4180 } from "@/tests/exports/rfc4180";
import { seedRequest } from "@/tests/exports/seed";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";

/**
 * Streaming (issue 30: "streamed, bounded memory, any size"): 5 000 payments whose block times repeat
 * in runs of 700 (so batch edges at 1 000, 2 000… fall inside runs of equal time) arrive complete,
 * once each, in (blockTime desc, id desc) order computed here; a reader that stops reading holds the
 * queries back; a cancelled stream reads no further batch.
 */
const N = 5000;
let accountId: string;
let apiKey: string;
let expected: string[];

beforeAll(async () => {
  await resetDb();
  const a = await makeIntegrator();
  accountId = a.account.id;
  apiKey = a.apiKey;
  const other = await makeIntegrator();
  const r = await seedRequest(accountId);
  const rb = await seedRequest(other.account.id);
  const base = Date.UTC(2026, 2, 1);
  // ids in an order unrelated to time: a hash, so ties are broken by something the test must sort itself.
  await db().$executeRaw`
    INSERT INTO "Payment" ("id", "requestId", "accountId", "network", "txHash", "logIndex", "blockNumber", "blockHash", "payer", "payee",
      "tokenAddress", "amount", "feeAmount", "proxyAddress", "blockTime")
    SELECT md5('p' || g), ${r.id}, ${accountId}, 'base', '0x' || md5('t' || g) || md5('u' || g), 0, g, '0x' || md5('b' || g) || md5('c' || g),
      ${r.payer}, ${r.payee}, ${r.tokenAddress}, 1000000 + g, 0, '0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814',
      ${new Date(base)}::timestamp + make_interval(mins => g / 700)
    FROM generate_series(0, ${N - 1}::int) g`;
  // Another account's payments at the same times: they must never appear.
  await db().$executeRaw`
    INSERT INTO "Payment" ("id", "requestId", "accountId", "network", "txHash", "logIndex", "blockNumber", "blockHash", "payee",
      "tokenAddress", "amount", "feeAmount", "proxyAddress", "blockTime")
    SELECT md5('q' || g), ${rb.id}, ${other.account.id}, 'base', '0x' || md5('x' || g) || md5('y' || g), 0, g, '0x' || md5('b' || g) || md5('c' || g),
      ${rb.payee}, ${rb.tokenAddress}, 1, 0, '0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814', ${new Date(base)}::timestamp + make_interval(mins => g / 700)
    FROM generate_series(0, 499) g`;
  const { createHash } = await import("node:crypto");
  const md5 = (s: string) => createHash("md5").update(s).digest("hex");
  expected = Array.from({ length: N }, (_, g) => ({ id: md5(`p${g}`), minute: Math.floor(g / 700) }))
    .sort((x, y) => y.minute - x.minute || (x.id < y.id ? 1 : x.id > y.id ? -1 : 0))
    .map((x) => x.id);
}, 60_000);

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("export stream", () => {
  it("5 000 payments through the route: complete, once each, in order across batch edges with equal times", async () => {
    expect(EXPORT_BATCH).toBe(1000);
    const res = await GET(new Request("http://localhost:3000/v2/exports/payments", { headers: { "x-api-key": apiKey } }), {
      params: Promise.resolve({ kind: "payments" }),
    });
    const [header, ...rows] = parseRfc4180(await res.text());
    const id = header!.indexOf("id");
    const amount = header!.indexOf("amount");
    expect(rows).toHaveLength(N);
    expect(rows.map((r) => r[id])).toEqual(expected);
    expect(new Set(rows.map((r) => r[amount])).size).toBe(N);
    const json = await GET(new Request("http://localhost:3000/v2/exports/payments?format=json", { headers: { "x-api-key": apiKey } }), {
      params: Promise.resolve({ kind: "payments" }),
    });
    expect((JSON.parse(await json.text()) as { id: string }[]).map((r) => r.id)).toEqual(expected);
  }, 60_000);

  it("small batches give the same rows (batch edges everywhere)", async () => {
    const source = exportSource("payments", accountId, parseExportFilters("payments", {}));
    const text = await readAll(exportStream(source, { format: "ndjson" }, 333));
    expect(
      text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).id),
    ).toEqual(expected);
  }, 60_000);

  it("pull-based: nothing is queried beyond what the reader asked for, and cancel stops the queries", async () => {
    const real = exportSource("payments", accountId, parseExportFilters("payments", {}));
    let calls = 0;
    const counted: BatchSource = (after, limit) => {
      calls += 1;
      return real(after, limit);
    };
    const stream = exportStream(counted, { format: "csv" }, 100);
    await new Promise((r) => setTimeout(r, 300));
    // Only the header is queued ahead of a reader that has read nothing.
    expect(calls).toBe(0);
    const reader = stream.getReader();
    const head = await reader.read();
    expect(new TextDecoder().decode(head.value)).toMatch(/^date,type,/);
    const first = await reader.read();
    expect(parseRfc4180(new TextDecoder().decode(first.value))).toHaveLength(100);
    await new Promise((r) => setTimeout(r, 300));
    // One batch read, at most one more queued ahead (high-water mark 1), never the 50 of the whole export.
    expect(calls).toBeLessThanOrEqual(2);
    await reader.cancel();
    const atCancel = calls;
    await new Promise((r) => setTimeout(r, 500));
    expect(calls).toBe(atCancel);
  }, 30_000);
});
