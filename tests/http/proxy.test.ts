import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { API_ROUTES, matchApiRoute } from "@/lib/http/api-routes";
import { proxy } from "@/proxy";

/**
 * proxy.ts on its own (the built server's behaviour is e2e/edge.spec.ts): the route table it
 * answers 404/405 from matches the route files on disk, and what it answers or hands on.
 */
const APP = path.resolve(import.meta.dirname, "../../app");

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

const req = (url: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
  new NextRequest(new URL(url, "http://localhost:3000"), { method: init.method ?? "GET", headers: init.headers });

/** A request header the proxy forwards (NextResponse.next/rewrite with request headers). */
const forwarded = (res: Response, name: string) => res.headers.get(`x-middleware-request-${name}`);

describe("the route table", () => {
  it("lists every route file under /v1, /v2 and /api with exactly the methods it exports", () => {
    const onDisk: Record<string, string[]> = {};
    for (const dir of ["v1", "v2", "api"]) {
      for (const file of routeFiles(path.join(APP, dir))) {
        const template = `/${path
          .relative(APP, path.dirname(file))
          .split(path.sep)
          .map((s) => s.replace(/^\[(.+)\]$/, "{$1}"))
          .join("/")}`;
        const src = readFileSync(file, "utf8");
        onDisk[template] = [...src.matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE|OPTIONS)\b/g)]
          .map((m) => m[1]!)
          .sort();
      }
    }
    const listed = Object.fromEntries(Object.entries(API_ROUTES).map(([k, v]) => [k, [...v].sort()]));
    expect(listed).toEqual(onDisk);
  });

  it("picks the route Next picks: a literal segment beats a parameter", () => {
    expect(matchApiRoute("/v2/request/payment-intents/abc")?.template).toBe("/v2/request/payment-intents/{paymentIntentId}");
    expect(matchApiRoute("/v2/request/abc/pay")?.template).toBe("/v2/request/{requestId}/pay");
    // next-auth's catch-all takes one segment or more, and only under its own prefix.
    expect(matchApiRoute("/api/auth/csrf")?.template).toBe("/api/auth/{...nextauth}");
    expect(matchApiRoute("/api/auth/callback/credentials")?.template).toBe("/api/auth/{...nextauth}");
    expect(matchApiRoute("/api/auth")).toBeNull();
    expect(matchApiRoute("/v2/secure-payments/batch-payouts")?.template).toBe("/v2/secure-payments/batch-payouts");
    expect(matchApiRoute("/v2/secure-payments/tok_1")?.template).toBe("/v2/secure-payments/{token}");
    expect(matchApiRoute("/v2/currencies/USD/conversion-routes")?.allow.sort()).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(matchApiRoute("/v2/nothing")).toBeNull();
    expect(matchApiRoute("/v2")).toBeNull();
  });
});

describe("proxy", () => {
  afterEach(() => {
    delete process.env.DUEBILL_SOCKET_IP_PROOF;
  });

  it("answers an unknown API path with the JSON 404, the prefix alone included", async () => {
    for (const url of ["/v2/nope", "/v1/auth", "/v2", "/v1/", "/api/nope", "/v2/payouts/x/y/z"]) {
      const res = proxy(req(url, { headers: { "x-request-id": "req-abcdefgh" } }));
      expect(res.status, url).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(await res.json()).toEqual({
        statusCode: 404,
        error: "Not Found",
        message: "No API operation at this path",
        code: "not_found",
        requestId: "req-abcdefgh",
      });
    }
  });

  it("answers a method the route does not serve with the JSON 405 and Allow", async () => {
    const res = proxy(req("/v2/payouts", { method: "GET" }));
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
    const body = await res.json();
    expect(body).toMatchObject({ statusCode: 405, error: "Method Not Allowed", code: "method_not_allowed" });
    expect(body.requestId).toBe(res.headers.get("x-request-id"));
    expect(proxy(req("/v2/currencies", { method: "DELETE" })).status).toBe(405);
    // HEAD rides on GET
    expect(proxy(req("/v2/currencies", { method: "HEAD" })).headers.get("x-middleware-next")).toBe("1");
  });

  it("answers a malformed escape under the API with the JSON 400 naming the path", async () => {
    const res = proxy(req("/v2/request/%E0%A4%A"));
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([{ field: "path", message: "malformed percent-escape in the path" }]);
  });

  it("answers a malformed escape in a page path with a 400 page", async () => {
    for (const url of ["/pay/%zz", "/pay/%c0%af", "/pay/%E0%A4%A"]) {
      const res = proxy(req(url));
      expect(res.status, url).toBe(400);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await res.text()).toContain("This address is malformed");
    }
    expect(proxy(req("/pay/abc")).headers.get("x-middleware-next")).toBe("1");
  });

  it("answers a plain OPTIONS with 204 and Allow, and marks a CORS preflight with its route (next.config.ts rewrites it)", () => {
    const plain = proxy(req("/v2/currencies/USD/conversion-routes", { method: "OPTIONS" }));
    expect(plain.status).toBe(204);
    expect(plain.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    const pre = proxy(
      req("/v2/currencies/USD/conversion-routes", {
        method: "OPTIONS",
        headers: { origin: "https://shop.example", "access-control-request-method": "GET" },
      }),
    );
    expect(pre.headers.get("x-middleware-next")).toBe("1");
    expect(forwarded(pre, "x-duebill-preflight-route")).toBe("/v2/currencies/{currencyId}/conversion-routes");
  });

  it("drops a client-sent preflight route header", () => {
    const res = proxy(req("/v2/currencies", { headers: { "x-duebill-preflight-route": "/v2/payouts" } }));
    expect(res.headers.get("x-middleware-override-headers")?.split(",")).not.toContain("x-duebill-preflight-route");
    expect(forwarded(res, "x-duebill-preflight-route")).toBeNull();
  });

  describe("x-duebill-socket-ip", () => {
    const kept = (res: Response) => forwarded(res, "x-duebill-socket-ip");

    it("is dropped without scripts/runtime/server.mjs's proof, on API paths and pages alike", () => {
      for (const url of ["/v2/currencies", "/dashboard"]) {
        expect(kept(proxy(req(url, { headers: { "x-duebill-socket-ip": "192.0.2.1" } }))), url).toBeNull();
        // a guessed proof is no proof while the server set none
        expect(kept(proxy(req(url, { headers: { "x-duebill-socket-ip": "192.0.2.1", "x-duebill-socket-ip-proof": "" } })))).toBeNull();
      }
    });

    it("is dropped with a wrong proof and kept with the server's", () => {
      process.env.DUEBILL_SOCKET_IP_PROOF = "a".repeat(64);
      const wrong = proxy(
        req("/v2/currencies", { headers: { "x-duebill-socket-ip": "192.0.2.1", "x-duebill-socket-ip-proof": "b".repeat(64) } }),
      );
      expect(kept(wrong)).toBeNull();
      const right = proxy(
        req("/v2/currencies", { headers: { "x-duebill-socket-ip": "192.0.2.1", "x-duebill-socket-ip-proof": "a".repeat(64) } }),
      );
      expect(kept(right)).toBe("192.0.2.1");
      // the proof itself never reaches the application
      expect(forwarded(right, "x-duebill-socket-ip-proof")).toBeNull();
    });
  });
});
