/**
 * The errors each client library really throws when its server is unreachable (a closed port:
 * nothing listens) are answered as 503 + Retry-After by the one error mapping of the API
 * wrapper, and an ordinary bug stays a 500.
 */
import net from "node:net";
import { PrismaPg } from "@prisma/adapter-pg";
import Redis from "ioredis";
import { createPublicClient, http } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { disconnectDb, rawQuery } from "@/lib/db";
import { reloadEnv } from "@/lib/env";
import { dependencyFault } from "@/lib/faults";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { errorResponse } from "@/lib/http/handler";

async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

async function thrown(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected a failure");
}

const op = { method: "GET", path: "/v2/test" } as const;
const redisClients: Redis[] = [];
afterAll(() => {
  for (const r of redisClients) r.disconnect();
});

async function expect503(err: unknown, dependency: string, message: RegExp) {
  expect(dependencyFault(err)).toBe(dependency);
  const res = errorResponse(err, "req-1", op);
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
  expect(await res.json()).toMatchObject({
    statusCode: 503,
    error: "Service Unavailable",
    code: "upstream_unavailable",
    message,
    requestId: "req-1",
  });
}

describe("dependency errors → 503", () => {
  it("Prisma over the pg adapter, database unreachable", async () => {
    const port = await closedPort();
    const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: `postgresql://postgres@127.0.0.1:${port}/x` }) });
    const err = await thrown(client.$queryRaw`SELECT 1`);
    await client.$disconnect();
    await expect503(err, "database", /database/);
  });

  it("node-postgres through rawQuery (the webhook sweep's statements), database unreachable; a SQL mistake stays a 500", async () => {
    const saved = process.env.DATABASE_URL;
    await disconnectDb();
    process.env.DATABASE_URL = `postgresql://postgres@127.0.0.1:${await closedPort()}/x`;
    reloadEnv();
    try {
      const err = await thrown(rawQuery("SELECT 1", []));
      expect((err as Error).name).toBe("DatabaseQueryError");
      await expect503(err, "database", /database/);
    } finally {
      await disconnectDb();
      process.env.DATABASE_URL = saved;
      reloadEnv();
    }
    const mistake = await thrown(rawQuery("SELECT no_such_column FROM (SELECT 1) t", []));
    expect((mistake as { code?: string }).code).toBe("42703"); // pg's SQLSTATE, kept
    expect(dependencyFault(mistake)).toBeNull();
    expect(errorResponse(mistake, "req-3", op).status).toBe(500);
  });

  it("ioredis, Redis unreachable", async () => {
    const port = await closedPort();
    const redis = new Redis({ port, host: "127.0.0.1", enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on("error", () => {});
    redisClients.push(redis);
    await expect503(await thrown(redis.get("k")), "redis", /Redis/);
  });

  it("viem, the chain's RPC unreachable", async () => {
    const port = await closedPort();
    const client = createPublicClient({ transport: http(`http://127.0.0.1:${port}`, { retryCount: 0 }) });
    await expect503(await thrown(client.getBlockNumber()), "rpc", /RPC/);
  });

  it("a bug stays a 500", async () => {
    const err = new TypeError("Cannot read properties of undefined (reading 'x')");
    expect(dependencyFault(err)).toBeNull();
    expect(errorResponse(err, "req-2", op).status).toBe(500);
    // A failing fetch to some other service is not a database outage.
    expect(dependencyFault(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))).toBeNull();
  });
});
