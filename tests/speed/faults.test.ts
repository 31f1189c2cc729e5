/**
 * Faults answered as faults (issue 33, item 6): the database restarted and the chain's RPC cut in
 * the middle of API traffic and payments. The database is a private cluster this test stops and
 * restarts (support/private-postgres.ts), the RPC a TCP proxy in front of anvil it cuts
 * (support/tcp-proxy.ts), and Redis a redis-server it kills; the payer's wallet talks to anvil directly, so payments land on chain
 * while the service cannot see them. Checked from outside: every response status and body, the
 * health route, the chain's own transfers, and a webhook receiver counting what arrives.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createPublicClient, createWalletClient, http as viemHttp } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { GET as healthGet } from "@/app/api/health/route";
import { POST as createWebhook } from "@/app/v1/webhook/route";
import { GET as currencies } from "@/app/v2/currencies/route";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { resetChainConfig } from "@/lib/chain/config";
import { resetCurrencyRegistry } from "@/lib/currencies/registry";
import { db, disconnectDb } from "@/lib/db";
import { sweepDetection } from "@/lib/detection/sweep";
import { reloadEnv } from "@/lib/env";
import { startWorker, type Worker } from "@/lib/jobs/worker";
import { sweepWebhooks } from "@/lib/webhooks/sweep";
import type { Devnet } from "@/scripts/devnet";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { type PrivatePostgres, startPrivatePostgres } from "./support/private-postgres";
import { startTcpProxy, type TcpProxy } from "./support/tcp-proxy";

let pg: PrivatePostgres;
let devnet: Devnet;
let rpc: TcpProxy;
let worker: Worker | undefined;
let redis: ChildProcess | undefined;
let redisPort = 0;

/** A Redis of the test's own for the rate limiter (redis-server on a free port, nothing saved). */
async function startRedis(): Promise<void> {
  redisPort ||= await new Promise<number>((resolve) => {
    const s = http.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
  redis = spawn("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  for (let i = 0; i < 100; i++) {
    if (spawnSync("redis-cli", ["-p", String(redisPort), "ping"], { encoding: "utf8" }).stdout.trim() === "PONG") return;
    await sleep(50);
  }
  throw new Error("redis-server did not start");
}

async function stopRedis(): Promise<void> {
  const r = redis;
  redis = undefined;
  if (!r || r.exitCode !== null) return;
  await new Promise((done) => {
    r.once("exit", done);
    r.kill("SIGKILL");
  });
}
let a: Awaited<ReturnType<typeof makeIntegrator>>;
const sharedDatabaseUrl = process.env.DATABASE_URL;
const received: { delivery: string; body: { event?: string; requestId?: string } }[] = [];
let receiver: http.Server;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  pg = await startPrivatePostgres("duebill_faults");
  const root = path.resolve(__dirname, "../..");
  const m = spawnSync(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: pg.url, CHECKPOINT_DISABLE: "1" },
    encoding: "utf8",
  });
  if (m.status !== 0) throw new Error(`migrate deploy failed: ${m.stderr}`);
  await disconnectDb();
  process.env.DATABASE_URL = pg.url;
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  await startRedis();
  process.env.REDIS_URL = `redis://127.0.0.1:${redisPort}`;
  devnet = await useDevnet();
  rpc = await startTcpProxy(Number(new URL(devnet.rpcUrl).port));
  const config = devnet.chainConfig() as Record<string, Record<string, unknown>>;
  config[devnet.network]!.rpcUrl = `http://127.0.0.1:${rpc.port}`;
  process.env.CHAIN_CONFIG = JSON.stringify(config);
  reloadEnv();
  resetChainConfig();
  resetCurrencyRegistry();
  a = await makeIntegrator();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ delivery: String(req.headers["x-duebill-delivery"]), body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  const hook = await call(createWebhook, "/v1/webhook", {
    method: "POST",
    headers: { "x-client-id": a.clientId },
    json: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks` },
  });
  expect(hook.status).toBe(201);
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await disconnectDb();
  process.env.DATABASE_URL = sharedDatabaseUrl;
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  delete process.env.REDIS_URL;
  await stopRedis();
  await rpc?.close();
  await stopDevnet(devnet);
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
  pg?.destroy();
});

interface Seen {
  status: number;
  retryAfter: string | null;
  body: { statusCode?: number; code?: string; requestId?: string } | null;
  route: string;
}
const seen: Seen[] = [];

/** One API call, its answer kept for the final checks; a handler that throws counts as a 500. */
async function api(route: string, fn: () => ReturnType<typeof call>) {
  try {
    const res = await fn();
    seen.push({ status: res.status, retryAfter: res.headers.get("retry-after"), body: res.body, route });
    return res;
  } catch (err) {
    seen.push({ status: 500, retryAfter: null, body: null, route: `${route} threw ${String(err)}` });
    return null;
  }
}

const payout = () =>
  api("POST /v2/payouts", () =>
    call(createPayout, "/v2/payouts", {
      method: "POST",
      headers: { "x-api-key": a.apiKey },
      json: {
        payee: devnet.accounts.payee.address,
        amount: "5",
        invoiceCurrency: "USDC-sepolia",
        paymentCurrency: "USDC-sepolia",
        payerWallet: devnet.accounts.payer.address,
      },
    }),
  );
const readRequest = (requestId: string) =>
  api("GET /v2/request/{id}", () =>
    call(getRequest, `/v2/request/${requestId}`, { headers: { "x-api-key": a.apiKey }, params: { requestId } }),
  );

/** The payer pays on anvil itself (not through the proxy): the chain moves on while the service is cut off. */
async function payOnChain(transactions: { to: `0x${string}`; data: `0x${string}` }[]) {
  const wallet = createWalletClient({
    account: privateKeyToAccount(devnet.accounts.payer.privateKey),
    chain: devnet.chain,
    transport: viemHttp(devnet.rpcUrl),
  });
  const pub = createPublicClient({ chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) });
  for (const tx of transactions) await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: tx.to, data: tx.data }) });
}

/** Creates a payout, retrying (as a client honouring Retry-After would) until the API is back. */
async function create(): Promise<{ requestId: string; transactions: { to: `0x${string}`; data: `0x${string}` }[] }> {
  for (let i = 0; i < 400; i++) {
    const res = await payout();
    if (res?.status === 201) return res.body;
    await sleep(250);
  }
  throw new Error(`the API never came back: ${JSON.stringify(seen.slice(-3))}`);
}

async function createAndPay(ids: string[]) {
  const created = await create();
  await payOnChain(created.transactions);
  ids.push(created.requestId);
}

/** Background traffic: reads and currency lists, until stopped. */
function traffic(ids: string[]) {
  let on = true;
  const loop = (async () => {
    while (on) {
      await api("GET /v2/currencies", () => call(currencies, "/v2/currencies?network=sepolia", { headers: { "x-api-key": a.apiKey } }));
      if (ids.length > 0) await readRequest(ids[ids.length - 1]!);
      await sleep(20);
    }
  })();
  return async () => {
    on = false;
    await loop;
  };
}

describe("a database restart and an RPC cut in the middle of traffic and payments", () => {
  it("answers 503 with Retry-After (never 500), says what is down, and detects and delivers every payment once", async () => {
    const ids: string[] = [];
    worker = startWorker([
      { name: "payment-detection", intervalMs: 200, run: () => sweepDetection() },
      { name: "webhook-delivery", intervalMs: 200, run: () => sweepWebhooks({ budgetMs: 2_000 }) },
    ]);
    const stopTraffic = traffic(ids);
    onTestFinished(stopTraffic);
    await createAndPay(ids);
    await createAndPay(ids);

    // The database goes down: the API answers 503 with Retry-After, the health route names it.
    pg.stop();
    const down = await payout();
    expect(down?.status).toBe(503);
    expect(down?.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(down?.body).toMatchObject({ statusCode: 503, error: "Service Unavailable", code: "upstream_unavailable" });
    const sick = await healthGet();
    expect(sick.status).toBe(503);
    expect((await sick.json()).dependencies).toMatchObject({ database: "down", rpc: { sepolia: "up" } });
    await sleep(1_000); // the worker's sweeps fail meanwhile and back off
    pg.start();
    await createAndPay(ids);
    // A restart under traffic: open connections are terminated, new ones refused while it runs.
    pg.restart();
    await createAndPay(ids);

    // The RPC is cut: payments land on chain but the service cannot see them until it is back.
    const beforeCut = [await create(), await create()];
    rpc.cut();
    const rpcDown = await (await healthGet()).json();
    expect(rpcDown.dependencies).toMatchObject({ database: "up", rpc: { sepolia: "down" } });
    expect(rpcDown.alerts.join(" ")).toMatch(/rpc sepolia/);
    // Creating a payout while the RPC is cut: 201 or 503, never a 500 (checked with the rest below).
    await payout();
    for (const c of beforeCut) {
      await payOnChain(c.transactions);
      ids.push(c.requestId);
    }
    await sleep(1_000);
    rpc.restore();
    await createAndPay(ids);
    expect((await (await healthGet()).json()).dependencies).toMatchObject({ database: "up", redis: "up", rpc: { sepolia: "up" } });

    // Redis dies: the limiter counts in memory meanwhile (it fails soft), the health route says so.
    await stopRedis();
    expect((await (await healthGet()).json()).dependencies).toMatchObject({ database: "up", redis: "down" });
    await createAndPay(ids);
    await startRedis();
    for (let i = 0; i < 100 && (await (await healthGet()).json()).dependencies.redis !== "up"; i++) await sleep(100);
    expect((await (await healthGet()).json()).dependencies.redis).toBe("up");

    // Everything arrives once the dependencies are back (polled: the worker runs on its own timers).
    const confirmed = () => received.filter((r) => r.body.event === "payment.confirmed");
    for (let i = 0; i < 600; i++) {
      const paid = await db().payment.count({ where: { requestId: { in: ids } } });
      if (paid >= ids.length && confirmed().length >= ids.length) break;
      await sleep(200);
    }
    await stopTraffic();
    await worker.stop();
    worker = undefined;
    // Nothing late: one more sweep of each finds nothing new to record or send.
    const again = await sweepDetection();
    expect(again.reduce((n, r) => n + r.recorded, 0)).toBe(0);
    expect((await sweepWebhooks()).claimed).toBe(0);

    expect(seen.filter((s) => s.status >= 500 && s.status !== 503)).toEqual([]);
    const unavailable = seen.filter((s) => s.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const s of unavailable) {
      expect(s.retryAfter).toMatch(/^\d+$/);
      expect(s.body).toMatchObject({ statusCode: 503, code: "upstream_unavailable", requestId: expect.any(String) });
    }
    expect(ids).toHaveLength(8);
    // Every payment detected once: one Payment row per request, matching the chain's one transfer each.
    const payments = await db().payment.findMany({ where: { requestId: { in: ids } } });
    expect(payments.map((p) => p.requestId).sort()).toEqual([...ids].sort());
    for (const id of ids) expect((await readRequest(id))?.body.hasBeenPaid).toBe(true);
    // Every webhook delivered once: one payment.confirmed per request, each delivery ID seen once.
    expect(
      confirmed()
        .map((r) => r.body.requestId)
        .sort(),
    ).toEqual([...ids].sort());
    const deliveries = received.map((r) => r.delivery);
    expect(new Set(deliveries).size).toBe(deliveries.length);
  }, 300_000);
});
