import { beforeEach, describe, expect, it } from "vitest";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { db } from "@/lib/db";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const body = {
  payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
  amount: "10",
  invoiceCurrency: "USDC-base",
  paymentCurrency: "USDC-base",
};
let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
});

const post = (json: unknown, key?: string, apiKey = a.apiKey) =>
  call(createPayout, "/v2/payouts", { method: "POST", json, headers: { "x-api-key": apiKey, ...(key ? { "idempotency-key": key } : {}) } });

describe("Idempotency-Key", () => {
  it("replays the first response to a retry and creates nothing twice", async () => {
    const first = await post(body, "order-42");
    expect(first.status).toBe(201);
    const retry = await post(body, "order-42");
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await db().paymentRequest.count()).toBe(1);
    expect((await post(body, "order-43")).body.requestId).not.toBe(first.body.requestId);
    expect((await post(body)).status).toBe(201);
    expect(await db().paymentRequest.count()).toBe(3);
  });

  it("refuses the same key with another body, and scopes keys per credential", async () => {
    await post(body, "k1");
    const other = await post({ ...body, amount: "11" }, "k1");
    expect(other.status).toBe(409);
    expect(other.body.message).toContain("different request body");
    const b = await makeIntegrator();
    expect((await post(body, "k1", b.apiKey)).headers.get("idempotent-replayed")).toBeNull();
  });

  it("releases the key when the request is refused, so the corrected one can use it", async () => {
    const bad = await post({ ...body, amount: "-1" }, "k2");
    expect(bad.status).toBe(400);
    expect(await db().idempotencyRecord.count()).toBe(0);
    const corrected = await post(body, "k2");
    expect(corrected.status).toBe(201);
    expect((await post(body, "k3 with space")).status).toBe(201);
    expect((await post(body, "x".repeat(256))).status).toBe(400);
  });

  it("answers racing requests with one key once: one object, the others replay it (hardening)", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => post(body, "race-1")));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(new Set(results.map((r) => r.body.requestId)).size).toBe(1);
    expect(results.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(7);
    expect(await db().paymentRequest.count()).toBe(1);
    expect(await db().idempotencyRecord.count({ where: { statusCode: null } })).toBe(0);
  });
});
