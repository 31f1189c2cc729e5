import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { invalidField } from "@/lib/errors";
import { json, withApi } from "@/lib/http/handler";
import { defineOperation } from "@/lib/http/operation";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const echoOp = defineOperation({
  method: "POST",
  path: "/v2/test-echo",
  operationId: "testEcho",
  summary: "echo",
  tags: ["Test"],
  auth: ["apiKey"],
  body: z.strictObject({ amount: z.string().regex(/^\d+(\.\d+)?$/, "must be a decimal string"), note: z.string().optional() }),
  responses: { 201: { description: "ok" } },
});

const echo = withApi(echoOp, async ({ body, principal }) => {
  if (body.note === "boom") throw new Error("database password is hunter2");
  if (body.note === "field") throw invalidField("note", "is not allowed here");
  return json({ amount: body.amount, accountId: principal.accountId }, 201);
});

let key: string;
let accountId: string;

beforeEach(async () => {
  await resetDb();
  const integrator = await makeIntegrator();
  key = integrator.apiKey;
  accountId = integrator.account.id;
});

const post = (body: unknown, headers: Record<string, string> = {}) =>
  call(echo, "/v2/test-echo", {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("withApi", () => {
  it("authenticates, parses and calls the handler", async () => {
    const res = await post({ amount: "12.5" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ amount: "12.5", accountId });
  });

  it("rejects unknown fields on writes (mass assignment)", async () => {
    const res = await post({ amount: "1", accountId: "acc_other" });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "accountId", message: "Unknown field: accountId" }]);
  });

  it("names the field at fault", async () => {
    const res = await post({ amount: 12 });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("amount");
    const missing = await post({});
    expect(missing.body.errors[0].field).toBe("amount");
  });

  it("answers invalid JSON, an empty body and a wrong content type with 4xx, never 500", async () => {
    const bad = await post("{not json");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_json");
    const empty = await post("");
    expect(empty.status).toBe(400);
    const form = await post("amount=1", { "content-type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
  });

  it("refuses bodies over the size limit", async () => {
    const res = await post({ amount: "1", note: "x".repeat(1_100_000) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("payload_too_large");
  });

  it("turns unexpected errors into a 500 without internals", async () => {
    const res = await post({ amount: "1", note: "boom" });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      statusCode: 500,
      error: "Internal Server Error",
      message: "Internal server error",
      code: "internal_error",
      requestId: res.headers.get("x-request-id"),
    });
    expect(JSON.stringify(res.body)).not.toContain("hunter2");
  });

  it("passes AppErrors through with their status", async () => {
    const res = await post({ amount: "1", note: "field" });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "note", message: "is not allowed here" }]);
  });

  it("checks credentials before reading the body", async () => {
    const res = await call(echo, "/v2/test-echo", { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(res.status).toBe(401);
  });
});
