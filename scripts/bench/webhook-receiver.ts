/**
 * The webhook bench's receiver, in a process of its own (scripts/bench/webhooks.ts starts it) so the
 * engine being measured does not share its event loop with the receiver. It answers every POST with
 * 200 after reading the whole body, checks `x-duebill-signature` (hex HMAC-SHA256 of the raw body
 * with BENCH_WEBHOOK_SECRET, node:crypto) and counts delivery IDs: every one received, the distinct
 * ones, duplicates and bad signatures. Prints `{"port":N}` once listening; answers an IPC "report"
 * message with the counts and its CPU time so far.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

const secret = Buffer.from(process.env.BENCH_WEBHOOK_SECRET ?? "", "utf8");
const seen = new Set<string>();
const counts = { received: 0, distinct: 0, duplicates: 0, badSignatures: 0, missingId: 0 };

const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    counts.received++;
    const body = Buffer.concat(chunks);
    const id = req.headers["x-duebill-delivery"];
    if (typeof id !== "string") counts.missingId++;
    else if (seen.has(id)) counts.duplicates++;
    else seen.add(id);
    const expected = createHmac("sha256", secret).update(body).digest();
    const got = Buffer.from(String(req.headers["x-duebill-signature"] ?? ""), "hex");
    if (got.length !== expected.length || !timingSafeEqual(got, expected)) counts.badSignatures++;
    res.writeHead(200, { "content-length": "0" }).end();
  });
});

server.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
});
/** This process's CPU time (user + system), µs: the bench reads it before and after the measured sweeps. */
const cpuUs = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
process.on("message", (m) => {
  if (m === "report") process.send?.({ ...counts, distinct: seen.size, cpuUs: cpuUs() });
  if (m === "stop") server.close(() => process.exit(0));
});
process.on("disconnect", () => process.exit(0));
