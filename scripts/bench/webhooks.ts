/**
 * Webhook delivery throughput, part of `npm run bench`: N deliveries to a local receiver that
 * verifies nothing and answers 200, sent by the real engine (deliverDue) against the bench DB.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export async function measureWebhookThroughput(count: number): Promise<{ deliveries: number; seconds: number; perSecond: number }> {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  const { reloadEnv } = await import("@/lib/env");
  reloadEnv();
  const { db } = await import("@/lib/db");
  const { ulid } = await import("@/lib/ids");
  const { encryptSecret } = await import("@/lib/webhooks/secret-box");
  const { generateWebhookSecret } = await import("@/lib/webhooks/sign");
  const { deliverDue } = await import("@/lib/webhooks/deliver");
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received += 1;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const account = await db().account.create({ data: { id: `acc_bench_wh_${ulid()}`, name: "bench webhooks" } });
    const endpoint = await db().webhookEndpoint.create({
      data: { id: ulid(), accountId: account.id, url, secretEnc: encryptSecret(generateWebhookSecret()) },
    });
    const body = JSON.stringify({ event: "payment.confirmed", requestId: "01".padEnd(66, "a"), amount: "10" });
    await db().webhookDelivery.createMany({
      data: Array.from({ length: count }, () => ({ id: ulid(), endpointId: endpoint.id, eventType: "payment.confirmed", body })),
    });
    const started = process.hrtime.bigint();
    let sent = 0;
    while (sent < count) {
      const r = await deliverDue({ limit: 200 });
      if (r.claimed === 0) break;
      sent += r.succeeded;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (received < count) throw new Error(`only ${received} of ${count} deliveries arrived`);
    return { deliveries: count, seconds: Number(seconds.toFixed(3)), perSecond: Math.round(count / seconds) };
  } finally {
    server.close();
  }
}
