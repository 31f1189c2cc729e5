import { afterAll, describe, expect, it, vi } from "vitest";

/**
 * A Next build can hold two copies of lib/db.ts (one per route bundle). The shared client is on
 * globalThis, so a transaction opened through one copy must be the one every other copy's db()
 * sees inside it; otherwise a write made "in the transaction" takes another connection and cannot
 * see the uncommitted rows (the invoice lane met this as a foreign-key violation under `next start`).
 */
type DbModule = typeof import("@/lib/db");

async function freshCopy(): Promise<DbModule> {
  vi.resetModules();
  return (await import("@/lib/db")) as DbModule;
}

const txid = async (m: DbModule) =>
  String(((await m.db().$queryRawUnsafe("SELECT txid_current()::text AS id")) as { id: string }[])[0]!.id);

describe("db() across two copies of the module", () => {
  afterAll(() => vi.resetModules());

  it("a db().$transaction opened through one copy is what the other copy's db() runs in", async () => {
    const a = await freshCopy();
    const b = await freshCopy();
    expect(a).not.toBe(b);
    const [inA, inB] = await a.db().$transaction(async (tx) => {
      const own = String(((await tx.$queryRawUnsafe("SELECT txid_current()::text AS id")) as { id: string }[])[0]!.id);
      return [own, await txid(b)];
    });
    expect(inB).toBe(inA);
    // Outside the transaction the other copy is back on the pool: a new transaction ID.
    expect(await txid(b)).not.toBe(inA);
  });

  it("inTransaction of one copy is joined by the other copy's db() too", async () => {
    const a = await freshCopy();
    const b = await freshCopy();
    const [outer, inner] = await a.inTransaction(async () => [await txid(a), await txid(b)]);
    expect(inner).toBe(outer);
  });
});
