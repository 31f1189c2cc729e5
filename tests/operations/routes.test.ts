import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Operation } from "@/lib/http/operation";
import { OPERATIONS } from "@/lib/operations/index";

/**
 * Route files and the operation registry cannot drift: every exported method of every API
 * route file is an operation of lib/operations whose method and path are the file's own, and
 * every registered operation has its route file.
 */
const APP = path.resolve(import.meta.dirname, "../../app");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

const apiPathOf = (file: string) =>
  `/${path
    .relative(APP, path.dirname(file))
    .split(path.sep)
    .map((s) => s.replace(/^\[(.+)\]$/, "{$1}"))
    .join("/")}`;

describe("route files ↔ operation registry", () => {
  const files = [...routeFiles(path.join(APP, "v2")), ...routeFiles(path.join(APP, "v1"))].filter((f) => !f.includes("openapi.json"));

  it("finds the API route files", () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  it("serves each registered operation from the route file at its path, with its method", async () => {
    const served = new Map<string, Operation>();
    for (const file of files) {
      const mod = (await import(file)) as Record<string, { operation?: Operation } | undefined>;
      const exported = METHODS.filter((m) => mod[m] !== undefined);
      expect(exported.length, file).toBeGreaterThan(0);
      for (const m of exported) {
        const op = mod[m]?.operation;
        expect(op, `${m} in ${file} is not wrapped with withApi`).toBeDefined();
        expect(`${op?.method} ${op?.path}`).toBe(`${m} ${apiPathOf(file)}`);
        served.set(`${m} ${apiPathOf(file)}`, op!);
      }
    }
    const registered = new Map(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op]));
    expect([...served.keys()].sort()).toEqual([...registered.keys()].sort());
    for (const [key, op] of served) expect(registered.get(key), key).toBe(op);
  });

  it("gives every operation a unique operationId", () => {
    const ids = OPERATIONS.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
