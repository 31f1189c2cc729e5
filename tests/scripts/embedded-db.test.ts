/**
 * Embedded mode (`npm run dev` without DATABASE_URL: PGlite behind pglite-socket) under parallel
 * load. pglite-socket's multiplexer interleaves the extended-protocol messages of concurrent
 * connections, which answered 404s and 500s (08P01 "bind message supplies 2 parameters, but
 * prepared statement requires 3") for objects that exist. The app therefore talks to it over one
 * connection (scripts/runtime/embedded-db.ts `env`), and every interactive transaction is a unit of work
 * (lib/db.ts) so one connection never waits on itself. 8 × 300 parallel GETs, with writes and
 * transactions mixed in: every answer right.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { db, disconnectDb } from "@/lib/db";
import { reloadEnv } from "@/lib/env";
import { type EmbeddedDb, startEmbeddedDb } from "@/scripts/runtime/embedded-db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const ROOT = path.resolve(import.meta.dirname, "../..");
let embedded: EmbeddedDb;
let dataDir: string;
const saved = { url: process.env.DATABASE_URL, pool: process.env.DATABASE_POOL_MAX };

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "duebill-pglite-"));
  embedded = await startEmbeddedDb({ dataDir: path.join(dataDir, "pglite"), port: await freePort() });
  await promisify(execFile)(process.execPath, [path.join(ROOT, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: embedded.url },
  });
  await disconnectDb();
  Object.assign(process.env, embedded.env);
  reloadEnv();
}, 120_000);

afterAll(async () => {
  await disconnectDb();
  process.env.DATABASE_URL = saved.url;
  process.env.DATABASE_POOL_MAX = saved.pool;
  reloadEnv();
  await embedded?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("embedded database under parallel load", () => {
  it("8 × 300 parallel GETs with writes and transactions alongside: 0 wrong answers, 0 errors", async () => {
    expect(embedded.env.DATABASE_POOL_MAX).toBe("1");
    const a = await makeIntegrator();
    const create = () =>
      call(createRequest, "/v2/request", {
        method: "POST",
        headers: { "x-api-key": a.apiKey },
        json: {
          amount: "1.5",
          invoiceCurrency: "USDC-base",
          paymentCurrency: "USDC-base",
          payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
        },
      });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await create()).body.requestId);
    const wrong: string[] = [];
    const reader = async (w: number) => {
      for (let i = 0; i < 300; i++) {
        const id = ids[(w + i) % ids.length]!;
        const res = await call(getRequest, `/v2/request/${id}`, { headers: { "x-api-key": a.apiKey }, params: { requestId: id } });
        if (res.status !== 200 || res.body.requestId !== id) wrong.push(`${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      }
    };
    // Writers: plain creates and interactive transactions (each runs a query through db() inside).
    const writer = async () => {
      for (let i = 0; i < 40; i++) {
        const res = await create();
        if (res.status !== 201) wrong.push(`create ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
        const count = await db().$transaction(async () => db().paymentRequest.count({ where: { accountId: a.account.id } }));
        if (count < 8) wrong.push(`count ${count}`);
      }
    };
    const started = performance.now();
    await Promise.all([...Array.from({ length: 8 }, (_, w) => reader(w)), writer()]);
    console.info(
      `embedded: 2 400 GETs + 40 creates + 40 transactions in ${Math.round(performance.now() - started)} ms, ${wrong.length} wrong`,
    );
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(await db().paymentRequest.count({ where: { accountId: a.account.id } })).toBe(48);
  }, 180_000);
});
