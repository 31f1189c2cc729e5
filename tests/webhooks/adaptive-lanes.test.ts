/**
 * The sweep's delivery lanes (lib/webhooks/sweep.ts) adapt to how fast receivers answer: a receiver
 * that takes 300 ms per request (slower than FAST_BATCH_MS) never has more than the starting
 * DELIVERY_LANES × BATCH_CONCURRENCY requests open at once, and every delivery arrives once. Counted
 * at the receiver (open requests at any moment), not timed: each of its answers is slower than the
 * threshold by construction, so no batch can let the sweep add a lane.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ulid } from "@/lib/ids";
import { encryptSecret } from "@/lib/webhooks/secret-box";
import { generateWebhookSecret } from "@/lib/webhooks/sign";
import { BATCH_CONCURRENCY, DELIVERY_LANES, FAST_BATCH_MS, sweepWebhooks } from "@/lib/webhooks/sweep";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";

let open = 0;
let maxOpen = 0;
const ids: string[] = [];
const server = http.createServer((req, res) => {
  open += 1;
  maxOpen = Math.max(maxOpen, open);
  req.resume();
  req.on("end", () => {
    ids.push(String(req.headers["x-duebill-delivery"]));
    setTimeout(() => {
      open -= 1;
      res.writeHead(200).end("ok");
    }, FAST_BATCH_MS + 50);
  });
});
let url = "";

beforeAll(async () => {
  await resetDb();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("adaptive delivery lanes", () => {
  it("a slow receiver never sees more than the starting lanes' requests at once; every delivery arrives once", async () => {
    const a = await makeIntegrator();
    const endpoint = await db().webhookEndpoint.create({
      data: { id: ulid(), accountId: a.account.id, url, secretEnc: encryptSecret(generateWebhookSecret()) },
    });
    const count = 600;
    await db().webhookDelivery.createMany({
      data: Array.from({ length: count }, (_, i) => ({
        id: ulid(),
        endpointId: endpoint.id,
        eventType: "payment.confirmed",
        body: `{"i":${i}}`,
      })),
    });
    let succeeded = 0;
    for (let i = 0; i < 10 && succeeded < count; i++)
      succeeded += (await sweepWebhooks({ allowPrivate: true, budgetMs: 120_000 })).succeeded;
    expect(succeeded).toBe(count);
    expect(new Set(ids).size).toBe(count);
    expect(ids).toHaveLength(count);
    expect(maxOpen).toBeGreaterThan(BATCH_CONCURRENCY); // the lanes did run side by side
    expect(maxOpen).toBeLessThanOrEqual(DELIVERY_LANES * BATCH_CONCURRENCY);
  }, 120_000);
});
