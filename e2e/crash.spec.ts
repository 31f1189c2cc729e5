/**
 * Crash test (issue 10, "Hardening"), against the production build and without a browser:
 *
 * a. Idempotent creates survive a killed server: keyed POST /v2/payouts in flight when the
 *    server's whole process group is SIGKILLed (twice); after a restart on the same database
 *    every key resolves to 201 (never 409 "in progress", never 5xx) and the database holds
 *    exactly one payment request per key.
 * b. A webhook sweep survives a killed worker: `npm run worker` is SIGKILLed while a slow
 *    receiver holds deliveries; a restarted worker finishes every delivery once its leases run
 *    out. At-least-once: a delivery may arrive twice, always under the same delivery ID.
 *
 * Own database (duebill_crash), own devnet, own server and worker processes on free ports.
 */
import http from "node:http";
import { expect, test } from "@playwright/test";
import { type Devnet, getFreePort, startDevnet } from "@/scripts/devnet";
import { createE2eDatabase, type SeededDemo } from "./support/app-server";
import {
  type AppProc,
  checkDeliveries,
  deliveriesOf,
  deliveryStatus,
  dropDatabase,
  insertOutboxEvents,
  localDatabaseUrl,
  logFile,
  type Proc,
  pool,
  type RegisteredWebhook,
  registerWebhook,
  request,
  seedDemo,
  startApp,
  startWorker,
  stopAll,
  systemEnv,
  WebhookReceiver,
  waitFor,
  withDb,
} from "./support/system";

test.describe.configure({ mode: "serial" });

const DB = localDatabaseUrl("duebill_crash");
const LOG = logFile("crash");
const KEYS = 160;
const CONCURRENCY = 16;
/** The server is killed once this many responses of a round have come back. */
const KILL_AFTER = [50, 70];

let devnet: Devnet | undefined;
let app: AppProc | undefined;
let worker: Proc | undefined;
let receiver: WebhookReceiver | undefined;
let env: NodeJS.ProcessEnv;
let demo: SeededDemo;
let port: number;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await createE2eDatabase(DB);
  devnet = await startDevnet({ port: 0 });
  port = await getFreePort();
  env = systemEnv({
    databaseUrl: DB,
    devnet,
    appUrl: `http://127.0.0.1:${port}`,
    // Limits are not under test here; 160 creates in a burst must not be throttled.
    extra: { RATE_LIMIT_MULTIPLIER: "1000", WEBHOOK_TIMEOUT_MS: "2000", WEBHOOK_INTERVAL_MS: "200" },
  });
  demo = seedDemo(env);
  app = await startApp("crash-app", port, env, LOG);
});

test.afterAll(async () => {
  await stopAll([worker, app, receiver ? { stop: () => receiver!.close() } : undefined]);
  await devnet?.stop();
  await dropDatabase(DB).catch(() => {});
});

interface Outcome {
  status: number | null;
  requestId: string | null;
  replayed: boolean;
  error: string | null;
  body: string;
}

test("keyed creates: a SIGKILLed server leaves no stuck key and no duplicate request", async () => {
  test.setTimeout(150_000);
  const dv = devnet!;
  const keys = Array.from({ length: KEYS }, (_, i) => `crash-${i}-${Date.now().toString(36)}`);
  // A distinct amount per key: each stored request can be traced back to its key.
  const amountOf = (i: number) => `${i + 1}.25`;
  const bodyOf = (i: number) => ({
    payee: dv.accounts.payee.address,
    amount: amountOf(i),
    invoiceCurrency: "USD",
    paymentCurrency: "USDC-sepolia",
    payerWallet: dv.accounts.payer.address,
  });
  /** Every requestId ever answered per key (must stay a single one). */
  const seen = keys.map(() => new Set<string>());
  /** Whether a key's first 201 was a replay: only possible when an earlier request, cut by a kill, had committed. */
  const firstReplayed: (boolean | undefined)[] = keys.map(() => undefined);

  const round = async (label: string, killAfter: number | null): Promise<Outcome[]> => {
    const outcomes: Outcome[] = keys.map(() => ({ status: null, requestId: null, replayed: false, error: "not sent", body: "" }));
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    let answered = 0;
    let killed = false;
    await pool(
      keys,
      CONCURRENCY,
      async (key, i) => {
        const o = outcomes[i]!;
        o.error = null;
        try {
          const res = await request(`${app!.baseUrl}/v2/payouts`, {
            method: "POST",
            headers: { "x-api-key": demo.apiKey, "idempotency-key": key },
            body: bodyOf(i),
            agent,
          });
          o.status = res.status;
          o.body = res.text.slice(0, 300);
          o.replayed = res.headers["idempotent-replayed"] === "true";
          if (res.status === 201) {
            o.requestId = res.json.requestId;
            if (seen[i]!.size === 0) firstReplayed[i] = o.replayed;
            seen[i]!.add(res.json.requestId);
          }
        } catch (err) {
          o.error = err instanceof Error ? err.message : String(err);
        }
        answered++;
        if (killAfter !== null && !killed && answered >= killAfter) {
          killed = true;
          app!.crash();
        }
      },
      () => killed,
    );
    agent.destroy();
    const by = (f: (o: Outcome) => boolean) => outcomes.filter(f).length;
    console.log(
      `[crash] ${label}: 201 fresh ${by((o) => o.status === 201 && !o.replayed)}, 201 replayed ${by((o) => o.status === 201 && o.replayed)}, ` +
        `other status ${by((o) => o.status !== null && o.status !== 201)}, cut by the kill ${by((o) => o.status === null && o.error !== "not sent")}, ` +
        `not sent ${by((o) => o.error === "not sent")}`,
    );
    return outcomes;
  };

  const restart = async () => {
    await waitFor("the killed server's process group to be gone", () => app!.pids().length === 0, 10_000, 50);
    await app!.stop();
    app = await startApp("crash-app", port, env, LOG);
  };

  // Rounds 1 and 2 are cut by a SIGKILL; answers before the kill must already be right.
  const cut = new Set<number>();
  for (const [r, killAfter] of KILL_AFTER.entries()) {
    const outcomes = await round(`round ${r + 1} (SIGKILL after ${killAfter} answers)`, killAfter);
    for (const [i, o] of outcomes.entries()) if (o.status === null && o.error !== "not sent" && seen[i]!.size === 0) cut.add(i);
    const wrong = outcomes.filter((o) => o.status !== null && o.status !== 201);
    expect(wrong, `answers other than 201 before the kill: ${JSON.stringify(wrong.slice(0, 3))}`).toEqual([]);
    expect(outcomes.filter((o) => o.status === null && o.error !== "not sent").length, "requests cut by the kill").toBeGreaterThan(0);
    await restart();
  }

  // Round 3: every key resolves, replayed or fresh.
  const third = await round("round 3 (after restart)", null);
  // A cut request either committed before the kill (its retry replays: the answer was lost) or rolled back (its retry creates).
  expect(
    firstReplayed.filter((r, i) => r === true && !cut.has(i)).length,
    "first answers that replay a key no earlier request reached",
  ).toBe(0);
  const cutReplayed = [...cut].filter((i) => firstReplayed[i] === true).length;
  console.log(
    `[crash] ${cut.size} keys cut by a kill before any answer: ${cutReplayed} had committed (replayed), ${cut.size - cutReplayed} had rolled back (fresh)`,
  );
  const unresolved = third.map((o, i) => ({ key: keys[i], ...o })).filter((o) => o.status !== 201);
  expect(unresolved, `keys that did not resolve to 201: ${JSON.stringify(unresolved.slice(0, 5))}`).toEqual([]);
  // Round 4: a second retry replays every key with the same requestId.
  const fourth = await round("round 4 (second retry)", null);
  expect(fourth.filter((o) => o.status !== 201 || !o.replayed).length, "second retry: every key replayed").toBe(0);
  for (const [i, o] of fourth.entries()) expect(o.requestId, `key ${keys[i]}`).toBe(third[i]!.requestId);

  // One requestId per key across all rounds, distinct across keys.
  const multi = seen.map((s, i) => ({ key: keys[i], ids: [...s] })).filter((s) => s.ids.length !== 1);
  expect(multi, "keys answered with more than one requestId").toEqual([]);
  const ids = seen.map((s) => [...s][0]!);
  expect(new Set(ids).size).toBe(KEYS);

  // The database: exactly one payment request per key, the one the key's answers name.
  const rows = await withDb(DB, async (db) => {
    const r = await db.query<{ id: string; amount: string }>(
      `SELECT "id", "amount" FROM "PaymentRequest" WHERE "accountId" = $1 AND "kind" = 'payout'`,
      [demo.accountId],
    );
    return r.rows;
  });
  expect(rows.length, "payment requests in the database").toBe(KEYS);
  const byAmount = new Map<string, string[]>();
  for (const r of rows) byAmount.set(r.amount, [...(byAmount.get(r.amount) ?? []), r.id]);
  for (let i = 0; i < KEYS; i++) expect(byAmount.get(amountOf(i)), `stored requests for key ${keys[i]}`).toEqual([ids[i]]);
  const keyRows = await withDb(DB, async (db) => {
    const r = await db.query<{ n: string; done: string }>(
      `SELECT count(*) AS n, count(*) FILTER (WHERE "statusCode" = 201 AND "response" IS NOT NULL) AS done FROM "IdempotencyRecord"`,
    );
    return r.rows[0]!;
  });
  expect(Number(keyRows.n), "idempotency keys stored").toBe(KEYS);
  expect(Number(keyRows.done), "idempotency keys with their stored 201").toBe(KEYS);
  console.log(
    `[crash] keyed creates: ${KEYS} keys, ${KILL_AFTER.length} SIGKILLs, ${rows.length} payment requests, ${KEYS} keys each with one requestId`,
  );
});

test("webhook sweep: a SIGKILLed worker loses nothing and never changes a delivery ID", async () => {
  test.setTimeout(150_000);
  const EVENTS = 150;
  receiver = await WebhookReceiver.start();
  const webhooks: RegisteredWebhook[] = [];
  for (const p of ["/a", "/b"]) webhooks.push(await registerWebhook(app!.baseUrl, demo.clientId, receiver.url(p)));
  const events = await insertOutboxEvents(DB, demo.accountId, "crash", EVENTS);
  const eventIds = events.map((e) => e.id);
  const total = EVENTS * webhooks.length;

  // A slow receiver: the worker has deliveries in flight whenever it is killed.
  receiver.delayMs = 200;
  worker = startWorker("crash-worker-1", env, LOG);
  await waitFor("the worker to be mid-sweep", () => receiver!.received.length >= 60 && receiver!.inflight().length >= 3, 60_000, 20);
  const inflightAtKill = receiver.inflight().map((r) => r.deliveryId);
  const receivedBeforeKill = receiver.received.length;
  worker.crash();
  await waitFor("the killed worker's process group to be gone", () => worker!.pids().length === 0, 10_000, 50);
  await worker.stop();
  const leased = await withDb(DB, async (db) => {
    const r = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM "WebhookDelivery" WHERE "status" = 'pending' AND "leaseUntil" > now()`,
    );
    return Number(r.rows[0]!.n);
  });
  const statusAtKill = await deliveryStatus(DB, eventIds);
  console.log(
    `[crash] worker SIGKILLed after ${receivedBeforeKill} POSTs, ${inflightAtKill.length} in flight, ${leased} deliveries still leased, status ${JSON.stringify(statusAtKill)}`,
  );
  expect(leased, "the killed worker held leases").toBeGreaterThan(0);

  const t0 = Date.now();
  worker = startWorker("crash-worker-2", env, LOG);
  await waitFor(
    "every delivery to succeed",
    async () => {
      const s = await deliveryStatus(DB, eventIds);
      return (s.succeeded ?? 0) === total || (s.failed ?? 0) > 0;
    },
    100_000,
    500,
  );
  const finishMs = Date.now() - t0;
  await worker.stop();

  const rows = await deliveriesOf(DB, eventIds);
  const { problems, figures } = checkDeliveries(events, webhooks, rows, receiver.received);
  const resent = inflightAtKill.filter((id) => receiver!.received.filter((r) => r.deliveryId === id).length >= 2).length;
  console.log(
    `[crash] webhook sweep: ${EVENTS} events × ${webhooks.length} endpoints = ${figures.deliveries} deliveries, ${figures.received} POSTs received, ` +
      `${figures.uniqueDeliveryIds} delivery IDs, ${figures.duplicates} duplicate POSTs (same ID), ${resent}/${inflightAtKill.length} cut deliveries re-sent; ` +
      `restarted worker finished in ${finishMs} ms`,
  );
  expect(problems.slice(0, 10)).toEqual([]);
  expect(figures.deliveries).toBe(total);
  expect(figures.uniqueDeliveryIds).toBe(total);
  // A delivery cut by the kill was never recorded: the lease ran out and it was sent again.
  expect(resent, "deliveries in flight at the kill were sent again under their ID").toBe(inflightAtKill.length);
});
