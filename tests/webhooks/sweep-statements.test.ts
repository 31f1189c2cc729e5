/**
 * The webhook sweep's two statements (migration 20261203010000_webhook_sweep_functions) do work in
 * proportion to what they claim or record, not to the backlog or the table, whatever the statistics
 * say. The table here is never analyzed, as after a burst, which is when the inline statements went
 * wrong: the claim read and sorted every pending row, the outcome write scanned the whole table.
 *
 * The oracle is Postgres's own account of each run: auto_explain's plan of every statement inside
 * the functions, with actual row counts, sent to this test's connection (client_min_messages = log).
 * And the claim's choice is checked against a selection computed here, in JavaScript, from the rows
 * as inserted: due, not leased, not another status, oldest due first.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ulid } from "@/lib/ids";
import { resetDb } from "@/tests/helpers/db";
import { makeAccount } from "@/tests/helpers/factories";
import { mulberry32 } from "@/tests/helpers/prng";

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

const nodes = (p: PlanNode): PlanNode[] => [p, ...(p.Plans ?? []).flatMap(nodes)];

let client: pg.Client;
/** The plans auto_explain reported for the statements run since the last call. */
let plans: { text: string; plan: PlanNode }[] = [];

beforeAll(async () => {
  await resetDb();
  client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  client.on("notice", (n) => {
    const m = /^duration: [\d.]+ ms {2}plan:\n([\s\S]*)$/.exec(n.message ?? "");
    if (!m) return;
    const parsed = JSON.parse(m[1]!) as { "Query Text": string; Plan: PlanNode };
    plans.push({ text: parsed["Query Text"], plan: parsed.Plan });
  });
  await client.query("LOAD 'auto_explain'");
  for (const s of [
    "SET auto_explain.log_min_duration = 0",
    "SET auto_explain.log_analyze = on",
    "SET auto_explain.log_nested_statements = on",
    "SET auto_explain.log_format = 'json'",
    "SET client_min_messages = log",
  ])
    await client.query(s);
});
afterAll(async () => {
  await client.end();
});

const T0 = Date.parse("2026-11-27T12:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();

describe("webhook sweep statements", () => {
  it("the claim takes the oldest due, unleased pending deliveries and reads about as many rows as it takes, with 3 000 pending", async () => {
    const account = await makeAccount();
    const endpoint = await db().webhookEndpoint.create({
      data: { id: ulid(), accountId: account.id, url: "https://hooks.example.test/h", secretEnc: "x" },
    });
    const rand = mulberry32(33);
    const now = T0;
    const rows = Array.from({ length: 3_600 }, (_, i) => {
      const r = rand();
      const due = now - Math.floor(rand() * 3_600_000) - 1;
      const kind = r < 0.05 ? "leased" : r < 0.08 ? "expiredLease" : r < 0.12 ? "future" : r < 0.17 ? "succeeded" : "due";
      return {
        id: `d${String(i).padStart(5, "0")}${ulid()}`,
        endpointId: endpoint.id,
        eventType: "payment.confirmed",
        body: "{}",
        status: kind === "succeeded" ? ("succeeded" as const) : ("pending" as const),
        nextAttemptAt: new Date(kind === "future" ? now + 60_000 + i : due),
        leaseUntil: kind === "leased" ? new Date(now + 30_000) : kind === "expiredLease" ? new Date(now - 1) : null,
        kind,
      };
    });
    await db().webhookDelivery.createMany({ data: rows.map(({ kind: _k, ...r }) => r) });
    const eligible = rows
      .filter((r) => r.kind === "due" || r.kind === "expiredLease")
      .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime());
    const leased = rows.filter((r) => r.kind === "leased").length;
    expect(eligible.length).toBeGreaterThan(2_500);

    const claimed: string[] = [];
    for (let round = 0; round < 3; round++) {
      plans = [];
      const res = await client.query<{ id: string; url: string; active: boolean }>(
        `SELECT * FROM "webhook_claim_due"($1::timestamp, $2::timestamp, 50, $1::timestamp)`,
        [iso(now), iso(now + 90_000)],
      );
      expect(res.rows).toHaveLength(50);
      expect(res.rows.every((r) => r.url === "https://hooks.example.test/h" && r.active)).toBe(true);
      // The next 50 of the oldest-due-first order (ties broken by the table: compare due times, not IDs).
      const want = eligible.slice(round * 50, round * 50 + 50);
      const got = res.rows.map((r) => rows.find((x) => x.id === r.id)!);
      expect(got.map((r) => r.nextAttemptAt.getTime()).sort((a, b) => a - b)).toEqual(want.map((r) => r.nextAttemptAt.getTime()));
      claimed.push(...res.rows.map((r) => r.id));

      const inner = plans.find((p) => p.text.includes('UPDATE "WebhookDelivery" SET "leaseUntil"'));
      expect(inner, "auto_explain reported the claim's statement").toBeDefined();
      const all = nodes(inner!.plan);
      expect(all.some((n) => n["Node Type"] === "Sort")).toBe(false);
      expect(all.some((n) => n["Node Type"].startsWith("Bitmap"))).toBe(false);
      const scan = all.find((n) => n["Index Name"] === "WebhookDelivery_status_nextAttemptAt_idx");
      expect(scan, "the claim walks the (status, nextAttemptAt) index").toBeDefined();
      // Rows it looked at: the 50 it took, the leased ones it stepped over, and the ones taken in
      // earlier rounds (leased now) — never the thousands still pending behind them.
      const read = scan!["Actual Rows"] + (scan!["Rows Removed by Filter"] ?? 0);
      expect(read).toBeLessThanOrEqual(50 + leased + round * 50);
    }
    expect(new Set(claimed).size).toBe(150);
  });

  it("the outcome write finds each delivery by its key: no scan of the table, one attempt row each, state changed only under the lease", async () => {
    const held = await db().webhookDelivery.findMany({ where: { leaseUntil: new Date(T0 + 90_000) }, take: 40 });
    expect(held).toHaveLength(40);
    const outcomes = held.map((d, i) => ({
      // The last one's lease was taken over by another worker: its attempt is logged, its state is not changed.
      id: d.id,
      attempt_id: ulid(),
      prev: d.attempts,
      lease_until: iso(i === 39 ? T0 + 1 : T0 + 90_000),
      status: "succeeded",
      next_at: iso(T0),
      started_at: iso(T0),
      latency: 3,
      code: 200,
      error: null,
      req_headers: { "content-type": "application/json" },
      res_body: "",
      res_truncated: false,
    }));
    plans = [];
    const res = await client.query<{ changed: number }>(`SELECT "webhook_record_outcomes"($1::json, $2::timestamp) AS changed`, [
      JSON.stringify(outcomes),
      iso(T0),
    ]);
    expect(res.rows[0]!.changed).toBe(39);
    const statements = plans.filter((p) => /INSERT INTO "WebhookAttempt"|UPDATE "WebhookDelivery" d/.test(p.text));
    expect(statements.length).toBe(80);
    for (const { plan } of statements)
      expect(nodes(plan).filter((n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] === "WebhookDelivery")).toEqual([]);
    const after = await db().webhookDelivery.findMany({ where: { id: { in: held.map((d) => d.id) } }, include: { attemptLog: true } });
    for (const d of after) {
      expect(d.attemptLog).toHaveLength(1);
      if (d.id === held[39]!.id) expect(d).toMatchObject({ status: "pending", attempts: 0 });
      else expect(d).toMatchObject({ status: "succeeded", attempts: 1, leaseUntil: null, lastStatus: 200 });
    }
  });
});
