import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { reloadEnv } from "@/lib/env";
import { ulid } from "@/lib/ids";
import { deliverDue, MAX_ATTEMPTS, outcomeRecorder, RETRY_DELAYS_MS } from "@/lib/webhooks/deliver";
import { fanOutEvents } from "@/lib/webhooks/fan-out";
import { postWebhook, type Resolver } from "@/lib/webhooks/http-post";
import { createTestDelivery, redeliver } from "@/lib/webhooks/manage-deliveries";
import { decryptSecret, encryptSecret } from "@/lib/webhooks/secret-box";
import { generateWebhookSecret, signatureHeader, standardSignature, verifySignature, verifyStandardSignature } from "@/lib/webhooks/sign";
import { sweepWebhooks } from "@/lib/webhooks/sweep";
import { checkWebhookUrl, isForbiddenIp } from "@/lib/webhooks/url-policy";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { expectInterfacePaymentEvent } from "@/tests/helpers/payment-event-fields";

// ---- a local receiver (127.0.0.1 only) that verifies signatures over the RAW body ----
interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Reply = { status: number; headers?: Record<string, string>; body?: string | Buffer } | "hang";

const SECRET = generateWebhookSecret();
let received: Received[] = [];
let reply: (r: Received, hits: number) => Reply | Promise<Reply> = () => ({ status: 200 });
let base = "";
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", async () => {
    const raw = Buffer.concat(chunks);
    const rec: Received = { path: req.url ?? "", headers: req.headers, body: raw.toString("utf8") };
    received.push(rec);
    const h = (name: string) => req.headers[name] as string | undefined;
    const signed =
      verifySignature(SECRET, raw, h("x-duebill-signature")) &&
      verifyStandardSignature(SECRET, raw, { id: h("webhook-id"), timestamp: h("webhook-timestamp"), signature: h("webhook-signature") });
    if (rec.path.startsWith("/hook") && !signed) {
      res.writeHead(401).end("bad signature");
      return;
    }
    const r = await reply(rec, received.filter((x) => x.path === rec.path).length);
    if (r === "hang") return;
    res.writeHead(r.status, r.headers).end(r.body ?? "ok");
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let a: Awaited<ReturnType<typeof makeIntegrator>>;
beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  received = [];
  reply = () => ({ status: 200 });
});

const local = { allowPrivate: true } as const;
const hooks = () => received.filter((r) => r.path.startsWith("/hook"));

async function makeEndpoint(opts: { clientId?: string | null; accountId?: string; path?: string; active?: boolean } = {}) {
  return db().webhookEndpoint.create({
    data: {
      id: ulid(),
      accountId: opts.accountId ?? a.account.id,
      clientId: opts.clientId === undefined ? a.clientId : opts.clientId,
      url: `${base}${opts.path ?? "/hook"}`,
      secretEnc: encryptSecret(SECRET),
      active: opts.active ?? true,
    },
  });
}

async function addEvent(clientId: string | null = a.clientId, extra: Record<string, unknown> = {}) {
  const id = ulid();
  const payload = { event: "payment.confirmed", requestId: `01${"ab".repeat(32)}`, amount: "12.5", fees: [], ...extra };
  await db().outboxEvent.create({
    data: { id, accountId: a.account.id, clientId, type: "payment.confirmed", dedupeKey: `t:${id}`, payload: JSON.stringify(payload) },
  });
  return { id, payload };
}

async function onlyDelivery() {
  const rows = await db().webhookDelivery.findMany();
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe("fan-out and delivery", () => {
  it("turns an outbox event into one signed delivery, received once with every header", async () => {
    const ep = await makeEndpoint();
    await makeEndpoint({ clientId: a.browserClientId }); // another client ID: not a target
    await makeEndpoint({ active: false }); // inactive: not a target
    const ev = await addEvent();
    expect(await fanOutEvents()).toEqual({ events: 1, deliveries: 1 });
    expect(await fanOutEvents()).toEqual({ events: 0, deliveries: 0 });
    const d = await onlyDelivery();
    expect(d).toMatchObject({ endpointId: ep.id, eventId: ev.id, eventType: "payment.confirmed", status: "pending", isTest: false });
    expect(JSON.parse(d.body)).toEqual(ev.payload);

    expect(await deliverDue(local)).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(await deliverDue(local)).toMatchObject({ claimed: 0 });
    expect(hooks()).toHaveLength(1);
    const got = hooks()[0]!;
    expect(got.body).toBe(d.body);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["x-duebill-signature"]).toBe(signatureHeader(SECRET, d.body));
    expect(got.headers["x-duebill-delivery"]).toBe(d.id);
    expect(got.headers["x-duebill-retry-count"]).toBe("0");
    expect(got.headers["x-duebill-test"]).toBeUndefined();
    // The reference's header names carry the same values, so a receiver written for it verifies unchanged
    // (its Easy Invoice example: hex HMAC-SHA256 of the body in x-request-network-signature).
    expect(got.headers["x-request-network-signature"]).toBe(got.headers["x-duebill-signature"]);
    expect(got.headers["x-request-network-delivery"]).toBe(d.id);
    expect(got.headers["x-request-network-retry-count"]).toBe("0");
    expect(got.headers["webhook-id"]).toBe(d.id);
    const ts = Number(got.headers["webhook-timestamp"]);
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(5);
    expect(got.headers["webhook-signature"]).toBe(standardSignature(SECRET, d.id, ts, d.body));

    const after = await db().webhookDelivery.findUniqueOrThrow({ where: { id: d.id } });
    expect(after).toMatchObject({ status: "succeeded", attempts: 1, lastStatus: 200, lastError: null, leaseUntil: null });
    const attempts = await db().webhookAttempt.findMany({ where: { deliveryId: d.id } });
    expect(attempts).toMatchObject([{ attempt: 1, statusCode: 200, error: null }]);
  });

  it("sends account-wide events to every active endpoint of the account only", async () => {
    await makeEndpoint();
    await makeEndpoint({ clientId: a.browserClientId });
    const other = await makeIntegrator();
    await makeEndpoint({ accountId: other.account.id, clientId: other.clientId });
    await addEvent(null);
    expect(await fanOutEvents()).toEqual({ events: 1, deliveries: 2 });
  });

  it("retries a failing receiver with the same delivery ID and retry-count 0..3", async () => {
    await makeEndpoint();
    await addEvent();
    await fanOutEvents();
    reply = (_r, hits) => ({ status: hits <= 3 ? 500 : 200 });
    let now = new Date();
    for (const delay of [1_000, 5_000, 15_000]) {
      expect(await deliverDue({ ...local, now })).toMatchObject({ claimed: 1, retried: 1 });
      expect(await deliverDue({ ...local, now: new Date(now.getTime() + delay - 1) })).toMatchObject({ claimed: 0 });
      now = new Date(now.getTime() + delay);
      expect((await onlyDelivery()).nextAttemptAt).toEqual(now);
    }
    expect(await deliverDue({ ...local, now })).toMatchObject({ claimed: 1, succeeded: 1 });
    const d = await onlyDelivery();
    expect(hooks().map((r) => r.headers["x-duebill-delivery"])).toEqual([d.id, d.id, d.id, d.id]);
    expect(hooks().map((r) => r.headers["x-duebill-retry-count"])).toEqual(["0", "1", "2", "3"]);
    expect(d).toMatchObject({ status: "succeeded", attempts: 4 });
    const attempts = await db().webhookAttempt.findMany({ where: { deliveryId: d.id }, orderBy: { attempt: "asc" } });
    expect(attempts.map((x) => [x.attempt, x.statusCode, x.error])).toEqual([
      [1, 500, "HTTP 500"],
      [2, 500, "HTTP 500"],
      [3, 500, "HTTP 500"],
      [4, 200, null],
    ]);
  });

  it("follows the whole backoff schedule and marks the delivery failed when the 10th retry fails", async () => {
    await makeEndpoint();
    await addEvent();
    await fanOutEvents();
    reply = () => ({ status: 503 });
    let now = new Date();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await deliverDue({ ...local, now })).toMatchObject({ claimed: 1 });
      const d = await onlyDelivery();
      expect(d.attempts).toBe(attempt);
      if (attempt < MAX_ATTEMPTS) {
        expect(d.status).toBe("pending");
        expect(d.nextAttemptAt.getTime() - now.getTime()).toBe(RETRY_DELAYS_MS[attempt - 1]);
        now = d.nextAttemptAt;
      } else {
        expect(d).toMatchObject({ status: "failed", lastStatus: 503, lastError: "HTTP 503", leaseUntil: null });
      }
    }
    expect(MAX_ATTEMPTS).toBe(11);
    expect(await deliverDue({ ...local, now: new Date(now.getTime() + 7 * 86_400_000) })).toMatchObject({ claimed: 0 });
    expect(hooks()).toHaveLength(MAX_ATTEMPTS);
    expect(await db().webhookAttempt.count()).toBe(MAX_ATTEMPTS);
  });

  it("retries a delivery whose worker crashed after claiming it, once the lease runs out", async () => {
    await makeEndpoint();
    await addEvent();
    await fanOutEvents();
    const now = new Date();
    const d = await onlyDelivery();
    // What a claim leaves behind when the process dies before any attempt is recorded.
    await db().webhookDelivery.update({ where: { id: d.id }, data: { leaseUntil: new Date(now.getTime() + 40_000) } });
    expect(await deliverDue({ ...local, now })).toMatchObject({ claimed: 0 });
    expect(await deliverDue({ ...local, now: new Date(now.getTime() + 40_001) })).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(hooks().map((r) => [r.headers["x-duebill-delivery"], r.headers["x-duebill-retry-count"]])).toEqual([[d.id, "0"]]);
  });

  it("a recorder shared by concurrent batches writes each outcome under its own batch's lease", async () => {
    await makeEndpoint();
    for (let i = 0; i < 4; i++) await addEvent();
    await fanOutEvents();
    const now = new Date();
    const takenOver = new Date(now.getTime() + 3_600_000);
    // All four are answered together, so their outcomes reach the one writer at once and (after the
    // first) share a statement; before that, the last one's lease "ran out and another worker took it".
    let all: () => void = () => {};
    const together = new Promise<void>((r) => {
      all = r;
    });
    let stolen: string | undefined;
    reply = async (r) => {
      if (hooks().length === 4) {
        stolen = r.headers["x-duebill-delivery"] as string;
        await db().webhookDelivery.update({ where: { id: stolen }, data: { leaseUntil: takenOver } });
        all();
      }
      await together;
      return { status: 200 };
    };
    const recorder = outcomeRecorder();
    // Four batches of one, claimed at different instants: four leases, one writer.
    await Promise.all([0, 7, 14, 21].map((ms) => deliverDue({ ...local, limit: 1, now: new Date(now.getTime() + ms), recorder })));
    expect(hooks()).toHaveLength(4);
    const rows = await db().webhookDelivery.findMany({ include: { attemptLog: true } });
    expect(rows.find((d) => d.id === stolen)).toMatchObject({ status: "pending", attempts: 0, leaseUntil: takenOver });
    const kept = rows.filter((d) => d.id !== stolen);
    expect(kept).toHaveLength(3);
    for (const d of kept)
      expect(d).toMatchObject({ status: "succeeded", attempts: 1, leaseUntil: null, attemptLog: [{ attempt: 1, statusCode: 200 }] });
  });

  it("never sends a delivery twice when sweeps run concurrently", async () => {
    await makeEndpoint();
    for (let i = 0; i < 60; i++) await addEvent();
    await fanOutEvents();
    reply = async () => {
      await new Promise((r) => setTimeout(r, 5));
      return { status: 200 };
    };
    const runs = await Promise.all([1, 2, 3].map(() => deliverDue({ ...local, limit: 40 })));
    expect(runs.reduce((n, r) => n + r.claimed, 0)).toBe(60);
    const ids = hooks().map((r) => r.headers["x-duebill-delivery"]);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    expect(await db().webhookDelivery.count({ where: { status: "succeeded" } })).toBe(60);
  });

  it("does not follow redirects (the target is never hit)", async () => {
    await makeEndpoint();
    await addEvent();
    await fanOutEvents();
    reply = () => ({ status: 302, headers: { location: `${base}/target` } });
    expect(await deliverDue(local)).toMatchObject({ claimed: 1, retried: 1 });
    expect(received.filter((r) => r.path === "/target")).toHaveLength(0);
    const d = await onlyDelivery();
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatus: 302, lastError: "redirect not followed" });
  });

  it("fails a delivery without HTTP when its endpoint was deactivated", async () => {
    const ep = await makeEndpoint();
    await addEvent();
    await fanOutEvents();
    await db().webhookEndpoint.update({ where: { id: ep.id }, data: { active: false } });
    expect(await deliverDue(local)).toMatchObject({ claimed: 1, failed: 1 });
    expect(await onlyDelivery()).toMatchObject({ status: "failed", lastError: "endpoint inactive", leaseUntil: null });
    expect(received).toHaveLength(0);
    expect(await db().webhookAttempt.count()).toBe(0);
  });

  it("records the other outcomes of a batch when one endpoint is deleted mid-flight", async () => {
    const doomed = await makeEndpoint({ path: "/hook-doomed" });
    await makeEndpoint({ clientId: a.browserClientId });
    await addEvent(null);
    await fanOutEvents();
    reply = async (r) => {
      if (r.path === "/hook-doomed") await db().webhookEndpoint.delete({ where: { id: doomed.id } });
      return { status: 200 };
    };
    expect(await deliverDue(local)).toMatchObject({ claimed: 2, succeeded: 2 });
    expect(await onlyDelivery()).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await db().webhookAttempt.count()).toBe(1);
  });

  it("sends test deliveries with x-duebill-test and the real payload shape", async () => {
    const ep = await makeEndpoint();
    const d = await createTestDelivery(ep.id, "payment.confirmed");
    const f = await createTestDelivery(ep.id, "payment.failed");
    expect(d).toMatchObject({ isTest: true, eventId: null, eventType: "payment.confirmed", status: "pending" });
    expect(Object.keys(JSON.parse(d.body))).toEqual(
      "event requestId requestID paymentReference explorer amount totalAmountPaid expectedAmount timestamp txHash network currency paymentCurrency isCryptoToFiat subStatus paymentProcessor fees reference payerAddress payerEoaAddress amountLabel excessAmount".split(
        " ",
      ),
    );
    expect(JSON.parse(f.body)).toMatchObject({
      event: "payment.failed",
      subStatus: "insufficient_funds",
      txHash: "",
      reference: "INV-1001",
    });
    // The interface's payment-event fields (docs/spec/service-interface.md, Events), like payment.confirmed.
    expectInterfacePaymentEvent(JSON.parse(d.body), "payment.confirmed");
    expectInterfacePaymentEvent(JSON.parse(f.body), "payment.failed");
    expect(await deliverDue(local)).toMatchObject({ claimed: 2, succeeded: 2 });
    expect(hooks().map((r) => r.headers["x-duebill-test"])).toEqual(["true", "true"]);
    expect(hooks().map((r) => r.headers["x-request-network-test"])).toEqual(["true", "true"]);
  });

  it("WEBHOOK_REFERENCE_HEADERS=false sends only Duebill's own names", async () => {
    process.env.WEBHOOK_REFERENCE_HEADERS = "false";
    reloadEnv();
    try {
      const ep = await makeEndpoint();
      await createTestDelivery(ep.id, "payment.confirmed");
      expect(await deliverDue(local)).toMatchObject({ claimed: 1, succeeded: 1 });
      const got = hooks().at(-1)!;
      expect(got.headers["x-duebill-signature"]).toBeTruthy();
      expect(Object.keys(got.headers).filter((h) => h.startsWith("x-request-network"))).toEqual([]);
    } finally {
      delete process.env.WEBHOOK_REFERENCE_HEADERS;
      reloadEnv();
    }
  });

  it("redelivers under the same delivery ID", async () => {
    await makeEndpoint();
    await addEvent();
    await fanOutEvents();
    await deliverDue(local);
    const d = await onlyDelivery();
    expect(await redeliver(d.id)).toMatchObject({ id: d.id, status: "pending" });
    expect(await redeliver("missing")).toBeNull();
    expect(await deliverDue(local)).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(hooks().map((r) => [r.headers["x-duebill-delivery"], r.headers["x-duebill-retry-count"]])).toEqual([
      [d.id, "0"],
      [d.id, "1"],
    ]);
  });

  it("delivers 1000 events to a local receiver (throughput, printed)", async () => {
    await makeEndpoint();
    const data = Array.from({ length: 1000 }, (_, i) => {
      const id = ulid();
      return {
        id,
        accountId: a.account.id,
        clientId: a.clientId,
        type: "payment.confirmed",
        dedupeKey: `bulk:${id}`,
        payload: JSON.stringify({ event: "payment.confirmed", i }),
      };
    });
    await db().outboxEvent.createMany({ data });
    const t0 = performance.now();
    let fanned = 0;
    for (let f = await fanOutEvents(); f.events > 0; f = await fanOutEvents()) fanned += f.deliveries;
    const t1 = performance.now();
    const r = await sweepWebhooks({ ...local, limit: 100 });
    const t2 = performance.now();
    expect(fanned).toBe(1000);
    expect(r.succeeded).toBe(1000);
    expect(new Set(hooks().map((x) => x.headers["x-duebill-delivery"])).size).toBe(1000);
    const perSec = Math.round(1000 / ((t2 - t1) / 1000));
    console.log(
      `webhook throughput: fan-out 1000 events in ${Math.round(t1 - t0)} ms; delivered 1000 in ${Math.round(t2 - t1)} ms = ${perSec} deliveries/s`,
    );
  });
});

describe("SSRF policy", () => {
  it("refuses private, loopback, metadata and obfuscated addresses", () => {
    const refused = [
      "http://127.0.0.1",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]",
      "https://0x7f000001",
      "https://2130706433",
      "https://0177.0.0.1",
      "https://127.1",
      "https://[::ffff:127.0.0.1]",
      "https://[::ffff:a00:1]",
      "https://[fe80::1]",
      "https://[fd00::1]",
      "https://[::]",
      "https://0.0.0.0",
      "https://10.0.0.1.",
      "https://100.64.0.1",
      "https://localhost",
      "https://api.localhost.",
      "https://intranet/hook",
      "https://user:pw@hooks.example.com",
      "http://hooks.example.com",
      "ftp://hooks.example.com",
      "not a url",
    ];
    for (const url of refused) expect(checkWebhookUrl(url, { allowPrivate: false }), url).toMatchObject({ ok: false });
    for (const url of ["https://0x7f000001", "https://2130706433", "https://0177.0.0.1", "https://[::ffff:127.0.0.1]"]) {
      const r = checkWebhookUrl(url, { allowPrivate: false });
      expect(r.ok ? "" : r.reason, url).toMatch(/private or reserved/);
    }
    expect(checkWebhookUrl("https://hooks.example.com/in?x=1", { allowPrivate: false })).toMatchObject({ ok: true });
    expect(checkWebhookUrl("https://8.8.8.8/hook", { allowPrivate: false })).toMatchObject({ ok: true });
    expect(checkWebhookUrl("http://127.0.0.1:3000/hook", { allowPrivate: true })).toMatchObject({ ok: true });
    expect(checkWebhookUrl("http://u:p@127.0.0.1:3000/hook", { allowPrivate: true })).toMatchObject({ ok: false });
  });

  it("classifies IPv4 and IPv6 ranges", () => {
    const forbidden = [
      "0.0.0.0",
      "10.1.2.3",
      "100.127.255.255",
      "127.0.0.1",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.0.0.8",
      "192.168.1.1",
    ];
    forbidden.push(
      "198.19.0.1",
      "224.0.0.1",
      "239.255.255.255",
      "240.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "fc00::1",
      "fdff::1",
      "fe80::1%eth0",
    );
    forbidden.push(
      "febf::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "64:ff9b::a00:1",
      "2002:7f00:1::",
      "2001:db8::1",
    );
    forbidden.push("::127.0.0.1", "0177.0.0.1", "01.2.3.4", "not-an-ip", "1.2.3", "[::1]");
    for (const ip of forbidden) expect(isForbiddenIp(ip), ip).toBe(true);
    const allowed = [
      "8.8.8.8",
      "93.184.216.34",
      "172.32.0.1",
      "100.128.0.1",
      "192.0.3.1",
      "2606:4700::1111",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
      "2002:808:808::1",
    ];
    for (const ip of allowed) expect(isForbiddenIp(ip), ip).toBe(false);
  });

  describe("postWebhook", () => {
    /** Each socket connect: the host it was given and the address its lookup produced (what it dials). */
    let connects: { host: string | undefined; address?: string }[] = [];
    beforeEach(() => {
      connects = [];
      const original = net.Socket.prototype.connect;
      // Records every socket connect; anything but loopback is cut at its lookup, so a bug here can
      // never put traffic on the network. net hands connect() either the options or, from net.connect,
      // the normalized [options, callback] pair: both are read.
      vi.spyOn(net.Socket.prototype, "connect").mockImplementation(function (this: net.Socket, ...args: unknown[]) {
        const opts = (Array.isArray(args[0]) ? args[0][0] : args[0]) as { host?: string } | undefined;
        const host = typeof opts === "object" ? opts?.host : undefined;
        // An address given as the host is dialled as it is (no lookup event follows).
        const entry: { host: string | undefined; address?: string } = { host, address: host && net.isIP(host) ? host : undefined };
        connects.push(entry);
        this.once("lookup", (_err: Error | null, address: string) => {
          entry.address = address;
          if (address && !["127.0.0.1", "127.0.0.2", "::1"].includes(address)) this.destroy(new Error(`blocked connect to ${address}`));
        });
        return (original as (...a: unknown[]) => net.Socket).apply(this, args);
      });
    });
    afterEach(() => vi.restoreAllMocks());
    const post = (url: string, resolve: Resolver, allowPrivate = false) =>
      postWebhook({ url, body: "{}", headers: { "content-type": "application/json" }, timeoutMs: 2_000, allowPrivate, resolve });

    it("refuses a name that resolves to a private address without connecting", async () => {
      const calls: string[] = [];
      const r = await post("https://hooks.example.test/in", async (h) => {
        calls.push(h);
        return [{ address: "10.0.0.1", family: 4 }];
      });
      expect(r).toMatchObject({ statusCode: null, error: expect.stringMatching(/^refused: .*10\.0\.0\.1/) });
      expect(calls).toEqual(["hooks.example.test"]);
      const mixed = await post("https://hooks.example.test/in", async () => [
        { address: "93.184.216.34", family: 4 },
        { address: "::ffff:169.254.169.254", family: 6 },
      ]);
      expect(mixed.error).toMatch(/^refused/);
      const literal = await post("https://[::ffff:127.0.0.1]/in", async () => {
        throw new Error("literal addresses are not resolved");
      });
      expect(literal.error).toMatch(/^refused/);
      expect(connects).toHaveLength(0);
    });

    it("connects to exactly the resolved address (allowed on loopback for local development)", async () => {
      const port = new URL(base).port;
      const r = await post(`http://hooks.example.test:${port}/plain`, async () => [{ address: "127.0.0.1", family: 4 }], true);
      expect(r).toMatchObject({ statusCode: 200, error: null });
      expect(received.at(-1)?.headers.host).toBe(`hooks.example.test:${port}`);
    });

    it("a kept-alive connection is never reused for a name that now resolves to a refused address", async () => {
      const port = new URL(base).port;
      const url = `http://hooks.localhost:${port}/keepalive`;
      let answer = "127.0.0.1";
      const resolve: Resolver = async () => [{ address: answer, family: 4 }];
      const send = () => postWebhook({ url, body: "{}", headers: {}, timeoutMs: 2_000, allowLoopback: true, allowPrivate: false, resolve });
      const before = received.length;
      expect(await send()).toMatchObject({ statusCode: 200, error: null });
      await new Promise((r) => setImmediate(r)); // the socket is back in the keep-alive pool
      // The name now points into the LAN (refused even with loopback allowed): refused before the pool is asked.
      answer = "10.0.0.7";
      expect((await send()).error).toMatch(/^refused: hooks\.localhost resolves to forbidden address 10\.0\.0\.7/);
      expect(received.length - before).toBe(1);
      answer = "127.0.0.1";
      expect(await send()).toMatchObject({ statusCode: 200, error: null });
      expect(received.length - before).toBe(2);
      // The connects this test saw went to loopback (so the record is not empty), never to 10.0.0.7.
      expect(connects.map((c) => c.address)).toContain("127.0.0.1");
      expect(connects.filter((c) => c.address === "10.0.0.7" || c.host === "10.0.0.7")).toEqual([]);
    });

    it("a kept-alive connection serves only the addresses the name resolves to now", async () => {
      // The same port on two loopback addresses: which one a request reaches shows which socket carried it.
      const reached: string[] = [];
      const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
        reached.push(req.socket.localAddress ?? "");
        req.resume().on("end", () => res.end("ok"));
      };
      const first = http.createServer(answer);
      const second = http.createServer(answer);
      await new Promise<void>((r) => first.listen(0, "127.0.0.1", r));
      const port = (first.address() as AddressInfo).port;
      await new Promise<void>((r) => second.listen(port, "127.0.0.2", r));
      try {
        let address = "127.0.0.1";
        const send = () =>
          postWebhook({
            url: `http://hooks.localhost:${port}/moved`,
            body: "{}",
            headers: {},
            timeoutMs: 2_000,
            allowLoopback: true,
            allowPrivate: false,
            resolve: async () => [{ address, family: 4 }],
          });
        expect(await send()).toMatchObject({ statusCode: 200, error: null });
        await new Promise((r) => setImmediate(r)); // the socket to 127.0.0.1 is back in the keep-alive pool
        address = "127.0.0.2";
        expect(await send()).toMatchObject({ statusCode: 200, error: null });
        expect(await send()).toMatchObject({ statusCode: 200, error: null });
        expect(reached).toEqual(["127.0.0.1", "127.0.0.2", "127.0.0.2"]);
      } finally {
        for (const s of [first, second]) {
          s.closeAllConnections();
          await new Promise((r) => s.close(r));
        }
      }
    });

    it("a name whose answers come in rotating order keeps its kept-alive connection", async () => {
      const opened: net.Socket[] = [];
      const server = http.createServer((req, res) => req.resume().on("end", () => res.end("ok")));
      server.on("connection", (s: net.Socket) => opened.push(s));
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      const port = (server.address() as AddressInfo).port;
      try {
        // Round-robin DNS: the same two addresses, in turn first (nothing listens on 127.0.0.3).
        const send = (order: string[]) =>
          postWebhook({
            url: `http://hooks.localhost:${port}/rotating`,
            body: "{}",
            headers: {},
            timeoutMs: 2_000,
            allowLoopback: true,
            allowPrivate: false,
            resolve: async () => order.map((address) => ({ address, family: 4 as const })),
          });
        expect(await send(["127.0.0.1", "127.0.0.3"])).toMatchObject({ statusCode: 200, error: null });
        await new Promise((r) => setImmediate(r)); // the socket is back in the keep-alive pool
        expect(await send(["127.0.0.3", "127.0.0.1"])).toMatchObject({ statusCode: 200, error: null });
        expect(opened).toHaveLength(1);
      } finally {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    });

    it("closes the least recently used keep-alive pool once there are more than 256", async () => {
      // The receiver keeps idle sockets for 10 minutes and says so: only closing its pool closes the first one.
      const opened: net.Socket[] = [];
      const server = http.createServer((req, res) => {
        req.resume().on("end", () => res.writeHead(200, { "keep-alive": "timeout=600" }).end("ok"));
      });
      server.keepAliveTimeout = 600_000;
      server.on("connection", (s: net.Socket) => opened.push(s));
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      const port = (server.address() as AddressInfo).port;
      try {
        const send = (k: number) =>
          postWebhook({
            url: `http://hooks.localhost:${port}/lru`,
            body: "{}",
            headers: {},
            timeoutMs: 2_000,
            allowLoopback: true,
            allowPrivate: false,
            // Another second address on every call: a pool of its own each time (the first address answers).
            resolve: async () => [
              { address: "127.0.0.1", family: 4 },
              { address: `127.0.${(k >> 8) + 1}.${k & 255}`, family: 4 },
            ],
          });
        expect(await send(0)).toMatchObject({ statusCode: 200, error: null });
        const first = opened[0]!;
        const firstClosed = new Promise((r) => first.once("close", r));
        for (let k = 1; k <= 320; k++) expect((await send(k)).error).toBeNull();
        await firstClosed; // never happens if pools are kept without bound
        expect(opened).toHaveLength(321);
      } finally {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    });

    it("enforces the total timeout and caps the response body", async () => {
      reply = (r) => (r.path === "/hang" ? "hang" : { status: 200, body: Buffer.alloc(1_000_000, 97) });
      const noResolve: Resolver = async () => [];
      const slow = await postWebhook({
        url: `${base}/hang`,
        body: "{}",
        headers: {},
        timeoutMs: 300,
        allowPrivate: true,
        resolve: noResolve,
      });
      expect(slow.error).toMatch(/timeout/);
      expect(slow.latencyMs).toBeGreaterThanOrEqual(250);
      expect(slow.latencyMs).toBeLessThan(2_000);
      const big = await postWebhook({
        url: `${base}/big`,
        body: "{}",
        headers: {},
        timeoutMs: 2_000,
        allowPrivate: true,
        resolve: noResolve,
      });
      expect(big).toMatchObject({ statusCode: 200, error: null });
    });
  });
});

describe("secrets and signatures", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    reloadEnv();
  });

  it("encrypts endpoint secrets with a versioned, authenticated format", () => {
    vi.stubEnv("APP_SECRET", "a".repeat(40));
    reloadEnv();
    const enc = encryptSecret(SECRET);
    expect(enc).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(enc).not.toContain(SECRET);
    expect(decryptSecret(enc)).toBe(SECRET);
    const [v, iv, tag, ct] = enc.split(".");
    // Tamper with the first ciphertext character (always a change: replacing the last two with "AA" was a no-op when they were "AA").
    const tampered = `${ct?.[0] === "A" ? "B" : "A"}${ct?.slice(1)}`;
    expect(() => decryptSecret([v, iv, tag, tampered].join("."))).toThrow(/Cannot decrypt/);
    vi.stubEnv("APP_SECRET", "b".repeat(40));
    reloadEnv();
    expect(() => decryptSecret(enc)).toThrow(/APP_SECRET changed/);
  });

  it("requires APP_SECRET in production", () => {
    vi.stubEnv("APP_SECRET", undefined);
    vi.stubEnv("NODE_ENV", "production");
    reloadEnv();
    expect(() => encryptSecret("x")).toThrow(/APP_SECRET is not set/);
  });

  it("matches the Standard Webhooks test vector and verifies x-duebill-signature", () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const body = '{"test": 2432232314}';
    const signature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
    expect(standardSignature(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body)).toBe(signature);
    const headers = { id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: "1614265330", signature: `v1,bogus ${signature}` };
    expect(verifyStandardSignature(secret, body, headers, { now: new Date(1614265330_000) })).toBe(true);
    expect(verifyStandardSignature(secret, body, headers, { now: new Date(1614265330_000 + 600_000) })).toBe(false);
    expect(verifyStandardSignature(secret, `${body} `, headers, { now: new Date(1614265330_000) })).toBe(false);
    expect(SECRET).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const hex = signatureHeader(SECRET, "{}");
    expect(hex).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySignature(SECRET, "{}", hex)).toBe(true);
    expect(verifySignature(SECRET, "{} ", hex)).toBe(false);
    expect(verifySignature(SECRET, "{}", undefined)).toBe(false);
  });

  it("signs exactly as the Standard Webhooks library does (the second implementation), on random inputs", () => {
    for (let i = 0; i < 200; i++) {
      const secret = i % 10 === 9 ? `raw-${randomBytes(12).toString("hex")}` : generateWebhookSecret();
      const body = JSON.stringify({ n: i, s: randomBytes(i % 40).toString("base64"), u: "é€😀".repeat(i % 3) });
      const id = ulid();
      const ts = 1_600_000_000 + i * 7919;
      const lib = secret.startsWith("whsec_") ? new Webhook(secret) : new Webhook(Buffer.from(secret, "utf8"), { format: "raw" });
      const expected = lib.sign(id, new Date(ts * 1000), body);
      expect(standardSignature(secret, id, ts, body)).toBe(expected);
      expect(standardSignature(secret, id, ts, Buffer.from(body, "utf8"))).toBe(expected);
    }
  });
});
