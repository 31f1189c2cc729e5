/**
 * The dashboard's webhook log (issue 27 item 5): every attempt keeps what it sent (headers, with
 * signature values masked) and what came back (status, duration, the response body's first 4 KiB
 * with secret-like values masked) — the signing secret is stored nowhere in the log, even when a
 * receiver echoes it — the log is paged, "Send test event" goes to one endpoint of the owner only,
 * and samples of payment events carry the merchant's `reference`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { reloadEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { sampleEvent } from "@/lib/events/samples";
import { ulid } from "@/lib/ids";
import { deliverDue } from "@/lib/webhooks/deliver";
import { listDeliveryLog } from "@/lib/webhooks/delivery-log";
import { createTestDelivery, sendTestToEndpoint } from "@/lib/webhooks/manage-deliveries";
import { REDACTED, RESPONSE_BODY_LIMIT, redactHeaders, redactText } from "@/lib/webhooks/redact";
import { encryptSecret } from "@/lib/webhooks/secret-box";
import { generateWebhookSecret, signatureHeader } from "@/lib/webhooks/sign";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";

const SECRET = generateWebhookSecret();
const KEY_PART = SECRET.slice("whsec_".length);
type Reply = { status: number; body: string | Buffer; contentType?: string };
let reply: (headers: http.IncomingHttpHeaders) => Reply = () => ({ status: 200, body: "" });
let base = "";
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const r = reply(req.headers);
    res.writeHead(r.status, { "content-type": r.contentType ?? "text/plain" }).end(r.body);
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  reloadEnv();
});
afterAll(async () => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  reloadEnv();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let a: Awaited<ReturnType<typeof makeIntegrator>>;
let b: Awaited<ReturnType<typeof makeIntegrator>>;
beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  b = await makeIntegrator();
  reply = () => ({ status: 200, body: "" });
});

const local = { allowPrivate: true } as const;
const ownerA = () => ({ accountId: a.account.id, clientId: null });

async function makeEndpoint(opts: { accountId?: string; active?: boolean; url?: string } = {}) {
  return db().webhookEndpoint.create({
    data: {
      id: ulid(),
      accountId: opts.accountId ?? a.account.id,
      clientId: null,
      url: opts.url ?? `${base}/hook`,
      secretEnc: encryptSecret(SECRET),
      active: opts.active ?? true,
    },
  });
}

/** Every stored attempt as text: nothing in it may hold the signing secret or its key part. */
async function attemptsText(): Promise<string> {
  return JSON.stringify(await db().webhookAttempt.findMany());
}

describe("what each attempt keeps", () => {
  it("keeps the headers (signatures masked) and the response body, masking a secret the receiver echoes", async () => {
    const ep = await makeEndpoint();
    reply = (h) => ({
      status: 200,
      contentType: "application/json",
      body: JSON.stringify({
        received: true,
        signature: h["x-duebill-signature"],
        webhookSecret: SECRET,
        note: `configured with ${SECRET} (key ${KEY_PART})`,
        apiKey: "dbk_live_abcdefghijklmnopqrstuvwxyz",
        authorization: "Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig",
        orderId: "ORDER-7",
      }),
    });
    const d = await createTestDelivery(ep.id, "payment.confirmed");
    expect(await deliverDue(local)).toMatchObject({ claimed: 1, succeeded: 1 });
    const [attempt] = await db().webhookAttempt.findMany({ where: { deliveryId: d.id } });
    expect(attempt).toMatchObject({ attempt: 1, statusCode: 200, responseTruncated: false });
    const headers = attempt!.requestHeaders as Record<string, string>;
    const signature = signatureHeader(SECRET, d.body);
    expect(headers["x-duebill-signature"]).toBe(`${signature.slice(0, 8)}…${REDACTED}`);
    expect(headers["x-request-network-signature"]).toBe(`${signature.slice(0, 8)}…${REDACTED}`);
    expect(headers["webhook-signature"]).toMatch(/^v1,.{5}…\[redacted\]$/);
    expect(headers).toMatchObject({
      "content-type": "application/json",
      "x-duebill-delivery": d.id,
      "x-duebill-retry-count": "0",
      "x-duebill-test": "true",
    });
    const body = JSON.parse(attempt!.responseBody!);
    expect(body).toEqual({
      received: true,
      signature: REDACTED,
      webhookSecret: REDACTED,
      note: `configured with ${REDACTED} (key ${REDACTED})`,
      apiKey: REDACTED,
      authorization: REDACTED,
      orderId: "ORDER-7",
    });
    const stored = await attemptsText();
    expect(stored).not.toContain(KEY_PART);
    expect(stored).not.toContain(signature);
    // The log the dashboard reads: the exact body sent, and the masked exchange.
    const log = await listDeliveryLog(ownerA(), ep.id);
    expect(log.deliveries[0]!.requestBody).toBe(d.body);
    expect(log.deliveries[0]!.attemptLog[0]).toMatchObject({
      statusCode: 200,
      responseBody: attempt!.responseBody,
      responseTruncated: false,
    });
    expect(JSON.stringify(log)).not.toContain(KEY_PART);
  });

  it("keeps the first 4 KiB of a long body, each retry's own exchange, and no body when nothing answered", async () => {
    const ep = await makeEndpoint();
    let hits = 0;
    reply = () => (++hits === 1 ? { status: 500, body: "x".repeat(10_000) } : { status: 202, body: "queued" });
    const d = await createTestDelivery(ep.id, "payment.failed");
    expect(await deliverDue(local)).toMatchObject({ claimed: 1, retried: 1 });
    await db().webhookDelivery.update({ where: { id: d.id }, data: { nextAttemptAt: new Date() } });
    expect(await deliverDue(local)).toMatchObject({ claimed: 1, succeeded: 1 });
    // Exactly once per attempt: nothing left to send, two attempts recorded.
    expect(await deliverDue(local)).toMatchObject({ claimed: 0 });
    const attempts = await db().webhookAttempt.findMany({ where: { deliveryId: d.id }, orderBy: { attempt: "asc" } });
    expect(attempts.map((x) => [x.attempt, x.statusCode, x.responseBody?.length, x.responseTruncated])).toEqual([
      [1, 500, RESPONSE_BODY_LIMIT, true],
      [2, 202, 6, false],
    ]);
    expect((attempts[1]!.requestHeaders as Record<string, string>)["x-duebill-retry-count"]).toBe("1");

    const dead = await makeEndpoint({ url: "http://127.0.0.1:1/hook" });
    const lost = await createTestDelivery(dead.id, "payment.confirmed");
    await deliverDue(local);
    const [refused] = await db().webhookAttempt.findMany({ where: { deliveryId: lost.id } });
    expect(refused).toMatchObject({ statusCode: null, responseBody: null, responseTruncated: false });
    expect(refused!.error).toMatch(/ECONNREFUSED/);
  });
});

describe("Send test event beside one endpoint", () => {
  it("sends to that endpoint only, at once, and records the exchange; another account's or a disabled one is refused", async () => {
    const ep = await makeEndpoint();
    const other = await makeEndpoint();
    reply = () => ({ status: 200, body: '{"ok":true}', contentType: "application/json" });
    const sent = await sendTestToEndpoint(ownerA(), ep.id, "payment.confirmed");
    expect(sent).toMatchObject({ endpointId: ep.id, ok: true, statusCode: 200, error: null });
    expect(await db().webhookDelivery.count({ where: { endpointId: other.id } })).toBe(0);
    const log = await listDeliveryLog(ownerA(), ep.id);
    expect(log.deliveries).toHaveLength(1);
    expect(log.deliveries[0]!.attemptLog[0]).toMatchObject({ statusCode: 200, responseBody: '{"ok":true}' });
    expect(log.deliveries[0]!.attemptLog[0]!.requestHeaders?.["x-duebill-signature"]).toContain(REDACTED);
    expect(await attemptsText()).not.toContain(KEY_PART);

    const refusal = async (p: Promise<unknown>) => p.then(() => null).catch((e: unknown) => (e instanceof AppError ? e.status : e));
    expect(await refusal(sendTestToEndpoint({ accountId: b.account.id, clientId: null }, ep.id, "payment.confirmed"))).toBe(404);
    const off = await makeEndpoint({ active: false });
    expect(await refusal(sendTestToEndpoint(ownerA(), off.id, "payment.confirmed"))).toBe(409);
    expect(await db().webhookDelivery.count({ where: { endpointId: off.id } })).toBe(0);
  });
});

describe("the delivery log", () => {
  it("is paged newest first; a page past the end is the last; another account's endpoint is not found", async () => {
    const ep = await makeEndpoint();
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) ids.push((await createTestDelivery(ep.id, "payment.confirmed", new Date(Date.now() + i))).id);
    const newestFirst = [...ids].reverse();
    const p1 = await listDeliveryLog(ownerA(), ep.id, 1, 10);
    expect([p1.page, p1.pageCount, p1.total]).toEqual([1, 3, 23]);
    expect(p1.deliveries.map((d) => d.id)).toEqual(newestFirst.slice(0, 10));
    const p2 = await listDeliveryLog(ownerA(), ep.id, 2, 10);
    expect(p2.deliveries.map((d) => d.id)).toEqual(newestFirst.slice(10, 20));
    const p3 = await listDeliveryLog(ownerA(), ep.id, 3, 10);
    expect(p3.deliveries.map((d) => d.id)).toEqual(newestFirst.slice(20));
    expect((await listDeliveryLog(ownerA(), ep.id, 99, 10)).page).toBe(3);
    expect((await listDeliveryLog(ownerA(), ep.id, Number.NaN, 10)).page).toBe(1);
    await expect(listDeliveryLog({ accountId: b.account.id, clientId: null }, ep.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe("masking", () => {
  it("masks credentials in free text and keeps the rest", () => {
    expect(redactText("token=abc123&order=7 password=hunter2", [])).toBe(`token=${REDACTED}&order=7 password=${REDACTED}`);
    expect(redactText('{"clientSecret":"s3cr3t","amount":"10","securePaymentToken":"01J"}')).toBe(
      `{"clientSecret":"${REDACTED}","amount":"10","securePaymentToken":"${REDACTED}"}`,
    );
    expect(redactText("key orc_abcdefghijklmnop and sk_live_abcdefghijklmn")).toBe(`key orc_${REDACTED} and sk_${REDACTED}`);
    expect(redactText("plain ok")).toBe("plain ok");
    expect(redactHeaders({ "x-duebill-signature": "0123456789abcdef0123", "x-duebill-delivery": "01J" })).toEqual({
      "x-duebill-signature": `01234567…${REDACTED}`,
      "x-duebill-delivery": "01J",
    });
  });

  it("samples of payment events carry the merchant's reference", () => {
    for (const type of ["payment.confirmed", "payment.partial", "payment.failed"] as const) {
      expect(sampleEvent(type)).toMatchObject({ event: type, reference: "INV-1001" });
    }
  });
});
