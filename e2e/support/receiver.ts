import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A local webhook receiver: checks x-duebill-signature over the raw bytes. */
export async function startReceiver() {
  const received: { body: Record<string, unknown>; valid: boolean }[] = [];
  const secret = { value: "" };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const expected = createHmac("sha256", secret.value).update(raw).digest("hex");
      received.push({ body: JSON.parse(raw.toString("utf8")), valid: expected === req.headers["x-duebill-signature"] });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    secret,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
