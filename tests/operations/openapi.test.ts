import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as openApiRoute } from "@/app/v2/openapi.json/route";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { OPERATIONS } from "@/lib/operations/index";

const root = path.resolve(__dirname, "../..");

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

describe("OpenAPI document", () => {
  it("documents every operation with its parameters, credentials and responses", () => {
    const doc = buildOpenApiDocument(OPERATIONS) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string; security: unknown[]; parameters: { name: string }[] }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe("3.1.0");
    for (const op of OPERATIONS) {
      const documented = doc.paths[op.path]?.[op.method.toLowerCase()];
      expect(documented, `${op.method} ${op.path}`).toBeDefined();
      expect(documented?.operationId).toBe(op.operationId);
      expect(documented?.security).toHaveLength(op.auth.length);
    }
    expect(doc.paths["/v2/currencies"]?.get?.parameters.map((p) => p.name)).toEqual(["network", "symbol", "id", "firstOnly"]);
    expect(doc.components.schemas).toHaveProperty("Currency");
    expect(doc.components.schemas).toHaveProperty("Error");
  });

  it("documents OPTIONS of every path: Allow, and the CORS preflight only where browser client IDs may call", () => {
    type Doc = {
      paths: Record<
        string,
        Record<string, { summary: string; security: unknown[]; responses: Record<string, { headers?: Record<string, unknown> }> }>
      >;
    };
    const doc = buildOpenApiDocument(OPERATIONS) as Doc;
    for (const [path, methods] of Object.entries(doc.paths)) {
      const options = methods.options;
      expect(options, path).toBeDefined();
      expect(options?.security).toEqual([]);
      expect(Object.keys(options?.responses ?? {}).sort(), path).toEqual(["204", "403", "429"]);
      expect(options?.responses["204"]?.headers).toHaveProperty("Allow");
    }
    // interface: client IDs are for client-side calls; webhook and client-ID management are not browser operations
    expect(doc.paths["/v2/payouts"]?.options?.summary).toContain("CORS preflight for POST");
    expect(doc.paths["/v2/currencies/{currencyId}/conversion-routes"]?.options?.summary).toContain("GET, HEAD");
    expect(doc.paths["/v2/client-ids"]?.options?.summary).toContain("no cross-origin access");
    expect(doc.paths["/v1/webhook"]?.options?.summary).toContain("no cross-origin access");
    expect(doc.paths["/v2/payouts"]?.post?.responses["201"]?.headers).toHaveProperty("Access-Control-Allow-Origin");
    expect(doc.paths["/v2/client-ids"]?.post?.responses["201"]?.headers).toBeUndefined();
  });

  it("has an operation for every public route file, so docs and routes cannot drift", () => {
    const documented = new Set(OPERATIONS.map((op) => `${op.method} ${op.path}`));
    for (const dir of ["app/v2", "app/v1"]) {
      let files: string[] = [];
      try {
        files = routeFiles(path.join(root, dir));
      } catch {
        continue;
      }
      for (const file of files) {
        const rel = path.relative(path.join(root, "app"), path.dirname(file));
        if (rel === path.join("v2", "openapi.json")) continue;
        const apiPath = `/${rel
          .split(path.sep)
          .map((s) => s.replace(/^\[(.+)\]$/, "{$1}"))
          .join("/")}`;
        const methods = [...readFileSync(file, "utf8").matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]);
        expect(methods.length, file).toBeGreaterThan(0);
        for (const m of methods) expect(documented.has(`${m} ${apiPath}`), `${m} ${apiPath} has no operation in lib/operations`).toBe(true);
      }
    }
  });

  it("is served at /v2/openapi.json", async () => {
    const res = await openApiRoute();
    expect(res.status).toBe(200);
    expect((await res.json()).info.title).toBe("Duebill API");
  });
});
