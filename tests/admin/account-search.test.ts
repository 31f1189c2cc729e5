/**
 * /admin/accounts in lib: search by name, email, wallet and account ID; keyset pages newest first,
 * forwards and back; the plans use the indexes (not a scan of Account or User); incoming volume
 * counts only what the account received as payee.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { accountPageSql, incomingVolume, searchAccounts } from "@/lib/admin/account-search";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { prefixedId } from "@/lib/ids";
import { resetDb } from "@/tests/helpers/db";
import { insertPaidRequest } from "@/tests/helpers/factories";

/** An account created `minutesAgo` minutes ago (distinct createdAt, so the order is known). */
async function account(name: string, minutesAgo: number, user?: { email?: string; walletAddress?: string }) {
  const id = prefixedId("acc_");
  await db().account.create({ data: { id, name, createdAt: new Date(Date.now() - minutesAgo * 60_000) } });
  if (user) await db().user.create({ data: { id: prefixedId("usr_"), accountId: id, ...user } });
  return id;
}

const names = (page: Awaited<ReturnType<typeof searchAccounts>>) => page.accounts.map((a) => a.name);

beforeEach(resetDb);

describe("searchAccounts", () => {
  it("finds an account by the start of its name in any case, by email, by wallet (any case) and by exact ID", async () => {
    const acme = await account("Acme Corp", 5, { email: "ops@acme.example" });
    await account("Zeta Works", 4, { walletAddress: "0x90f79bf6eb2c4f870365e785982e1f101e93b906" });
    await account("Tron Shop", 3, { walletAddress: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" });
    await account("acme labs", 2);
    await account("100% Real", 1);

    expect(names(await searchAccounts({ q: "acme" }))).toEqual(["acme labs", "Acme Corp"]);
    expect(names(await searchAccounts({ q: "ACME C" }))).toEqual(["Acme Corp"]);
    expect(names(await searchAccounts({ q: "acme corp" }))).toEqual(["Acme Corp"]);
    expect(names(await searchAccounts({ q: "OPS@Acme" }))).toEqual(["Acme Corp"]);
    expect(names(await searchAccounts({ q: "0x90F79bf6EB2c" }))).toEqual(["Zeta Works"]);
    expect(names(await searchAccounts({ q: "TR7NHq" }))).toEqual(["Tron Shop"]);
    expect(names(await searchAccounts({ q: "tr7nhq" }))).toEqual([]); // Tron addresses are case-sensitive
    expect(names(await searchAccounts({ q: acme }))).toEqual(["Acme Corp"]);
    expect(names(await searchAccounts({ q: acme.slice(0, -2) }))).toEqual([]); // IDs match whole
    // LIKE's wildcards are literal: "%" is not "anything", "_" not "any character".
    expect(names(await searchAccounts({ q: "100%" }))).toEqual(["100% Real"]);
    expect(names(await searchAccounts({ q: "%" }))).toEqual([]);
    expect(names(await searchAccounts({ q: "Acme_Corp" }))).toEqual([]);
    expect((await searchAccounts({ q: "acme" })).total).toBe(2);
    expect((await searchAccounts({ q: "nothing-like-it" })).total).toBe(0);
    // An account with two matching users is listed once.
    await db().user.create({ data: { id: prefixedId("usr_"), accountId: acme, email: "ops2@acme.example" } });
    expect(names(await searchAccounts({ q: "ops" }))).toEqual(["Acme Corp"]);
  });

  it("refuses a query over 200 characters, naming the field", async () => {
    await expect(searchAccounts({ q: "x".repeat(201) })).rejects.toMatchObject({
      code: "validation_failed",
      errors: [{ field: "q", message: "must be at most 200 characters" }],
    });
  });

  it("pages newest first with keyset cursors, forwards and back, with and without a search", async () => {
    for (let i = 0; i < 7; i++) await account(`Shop ${i}`, 100 - i); // Shop 6 is the newest
    await account("Other", 200);
    const p1 = await searchAccounts({ take: 3 });
    expect(names(p1)).toEqual(["Shop 6", "Shop 5", "Shop 4"]);
    expect(p1).toMatchObject({ total: 8, prev: null });
    const p2 = await searchAccounts({ take: 3, after: p1.next! });
    expect(names(p2)).toEqual(["Shop 3", "Shop 2", "Shop 1"]);
    const p3 = await searchAccounts({ take: 3, after: p2.next! });
    expect(names(p3)).toEqual(["Shop 0", "Other"]);
    expect(p3.next).toBeNull();
    const back = await searchAccounts({ take: 3, before: p3.prev! });
    expect(names(back)).toEqual(names(p2));
    const first = await searchAccounts({ take: 3, before: back.prev! });
    expect(names(first)).toEqual(names(p1));
    expect(first.prev).toBeNull();
    expect(first.next).toBe(p1.next);

    const s1 = await searchAccounts({ q: "shop", take: 4 });
    expect(names(s1)).toEqual(["Shop 6", "Shop 5", "Shop 4", "Shop 3"]);
    expect(s1.total).toBe(7);
    const s2 = await searchAccounts({ q: "shop", take: 4, after: s1.next! });
    expect(names(s2)).toEqual(["Shop 2", "Shop 1", "Shop 0"]);
    expect(s2.next).toBeNull();
    await expect(searchAccounts({ after: s1.next!, before: s1.next! })).rejects.toMatchObject({ errors: [{ field: "before" }] });
  });

  it("uses the indexes: no sequential scan of Account or User for a search page", async () => {
    await account("Seed", 1, { email: "seed@x.example" });
    // The statements searchAccounts sends, explained with their parameters.
    const { page, count } = accountPageSql({ q: "Ac", after: "acc_y" });
    const explain = (sql: Prisma.Sql) =>
      db().$transaction(async (tx) => {
        // Planner costs on a near-empty table favour scans; forbid them to prove an index serves every branch.
        await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
        return tx.$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`EXPLAIN ${sql}`);
      });
    const text = [...(await explain(page)), ...(await explain(count))].map((r) => r["QUERY PLAN"]).join("\n");
    expect(text).not.toMatch(/Seq Scan/);
    for (const index of ["Account_name_idx", "User_email_key", "User_walletAddress_key", "Account_createdAt_id_idx"])
      expect(text).toContain(index);
  });
});

describe("incomingVolume", () => {
  it("sums, per payment currency, only payments the account received as payee: not payouts, not fees, not other accounts'", async () => {
    const a = await account("Merchant", 2);
    const b = await account("Other", 1);
    await insertPaidRequest(a, "USDC-base", 1_500_000n, 0);
    await insertPaidRequest(a, "USDC-base", 2_250_000n, 1, { feeAmount: 100_000n });
    await insertPaidRequest(a, "USDT-base", 7_000_000n, 0);
    // A payout the account made (and a recurring payment is one too): money out, never counted.
    await insertPaidRequest(a, "USDC-base", 9_000_000n, 0, { kind: "payout" });
    await insertPaidRequest(b, "USDC-base", 5_000_000n, 0);

    const volume = await incomingVolume([a, b, "acc_none"]);
    expect(volume.get(a)).toEqual([
      { currency: "USDC-base", payments: 2, units: "3750000", amount: "3.75" },
      { currency: "USDT-base", payments: 1, units: "7000000", amount: "7" },
    ]);
    expect(volume.get(b)).toEqual([{ currency: "USDC-base", payments: 1, units: "5000000", amount: "5" }]);
    expect(volume.get("acc_none")).toEqual([]);
    expect((await incomingVolume([])).size).toBe(0);
  });
});
