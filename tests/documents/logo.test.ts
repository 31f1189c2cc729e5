import { execFileSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clearLogoCache, fetchLogo, LOGO_MAX_BYTES } from "@/lib/documents/logo";

/**
 * The logo fetch against a real HTTPS server on 127.0.0.1 (a certificate made by the openssl CLI
 * for the test): PNG and JPEG by magic bytes only, the size cap, the deadline, no redirects, the
 * 10-minute cache; and the address rules without any connection (private, loopback, http).
 */

const PNG = fs.readFileSync(path.resolve(import.meta.dirname, "../../public/apple-touch-icon.png"));
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);
let server: https.Server;
let base: string;
let cert: string;
const hits = new Map<string, number>();

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "duebill-logo-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ].concat(["-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")]),
    { stdio: "ignore" },
  );
  cert = fs.readFileSync(path.join(dir, "cert.pem"), "utf8");
  server = https.createServer({ key: fs.readFileSync(path.join(dir, "key.pem")), cert }, (req, res) => {
    const url = req.url ?? "/";
    hits.set(url, (hits.get(url) ?? 0) + 1);
    if (url === "/logo.png") res.writeHead(200, { "content-type": "image/png" }).end(PNG);
    else if (url === "/logo.jpg") res.writeHead(200, { "content-type": "image/jpeg" }).end(JPEG);
    // An SVG (or anything else) served as image/png: the bytes decide, not the header.
    else if (url === "/svg-as-png") res.writeHead(200, { "content-type": "image/png" }).end("<svg xmlns='http://www.w3.org/2000/svg'/>");
    else if (url === "/huge.png") {
      // Chunked (no content-length): the cap must hold while reading.
      res.writeHead(200, { "content-type": "image/png" });
      res.write(PNG.subarray(0, 8));
      res.end(Buffer.alloc(LOGO_MAX_BYTES + 10));
    } else if (url === "/slow.png") setTimeout(() => res.writeHead(200).end(PNG), 1500);
    else if (url === "/redirect") res.writeHead(302, { location: "/logo.png" }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => clearLogoCache());

const local = (extra: Record<string, unknown> = {}) => ({ allowLoopback: true, ca: cert, ...extra });

describe("fetchLogo", () => {
  it("returns PNG and JPEG bytes, recognised by their magic bytes", async () => {
    expect((await fetchLogo(`${base}/logo.png`, local()))?.equals(PNG)).toBe(true);
    expect((await fetchLogo(`${base}/logo.jpg`, local()))?.equals(JPEG)).toBe(true);
  });

  it("null for anything else: not an image, too large, too slow, a redirect, a 404", async () => {
    expect(await fetchLogo(`${base}/svg-as-png`, local())).toBeNull();
    expect(await fetchLogo(`${base}/huge.png`, local())).toBeNull();
    const started = Date.now();
    expect(await fetchLogo(`${base}/slow.png`, local({ timeoutMs: 300 }))).toBeNull();
    expect(Date.now() - started).toBeLessThan(1200);
    const targetHits = hits.get("/logo.png") ?? 0;
    expect(await fetchLogo(`${base}/redirect`, local())).toBeNull();
    expect(hits.get("/redirect")).toBe(1);
    // The redirect is not followed: its target is never asked for.
    expect(hits.get("/logo.png") ?? 0).toBe(targetHits);
    expect(await fetchLogo(`${base}/missing.png`, local())).toBeNull();
  });

  it("caches the answer per URL for 10 minutes", async () => {
    let now = 1_000_000;
    const clock = { now: () => now };
    hits.delete("/logo.png");
    await fetchLogo(`${base}/logo.png`, local(clock));
    await fetchLogo(`${base}/logo.png`, local(clock));
    expect(hits.get("/logo.png")).toBe(1);
    now += 9 * 60_000;
    await fetchLogo(`${base}/logo.png`, local(clock));
    expect(hits.get("/logo.png")).toBe(1);
    now += 2 * 60_000;
    await fetchLogo(`${base}/logo.png`, local(clock));
    expect(hits.get("/logo.png")).toBe(2);
  });

  it("never connects to this machine, a private address or over http in production settings", async () => {
    const before = [...hits.values()].reduce((s, n) => s + n, 0);
    // The same server, without the test's loopback allowance: refused before connecting.
    expect(await fetchLogo(`${base}/logo.png`, { ca: cert })).toBeNull();
    // A public-looking name that resolves to a private address.
    const resolve = async () => [{ address: "10.0.0.7", family: 4 as const }];
    expect(await fetchLogo("https://logo.example/logo.png", { resolve })).toBeNull();
    const metadata = async () => [{ address: "169.254.169.254", family: 4 as const }];
    expect(await fetchLogo("https://logo.example/meta.png", { resolve: metadata })).toBeNull();
    expect(await fetchLogo(`http://127.0.0.1:${new URL(base).port}/logo.png`, local())).toBeNull();
    expect(
      await fetchLogo("https://user:pass@logo.example/logo.png", { resolve: async () => [{ address: "93.184.216.34", family: 4 }] }),
    ).toBeNull();
    expect([...hits.values()].reduce((s, n) => s + n, 0)).toBe(before);
  });

  it("null without a URL", async () => {
    expect(await fetchLogo(null)).toBeNull();
    expect(await fetchLogo("")).toBeNull();
  });
});
