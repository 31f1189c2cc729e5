/**
 * The counts Postgres keeps (lib/requests/status-counts.ts, migration 20261202070000_status_counts)
 * against the oracle they replace: `count(*)` of PaymentRequest per kind and status and of SecurePayment
 * per status, read from the tables themselves. Random writes of every shape the
 * code uses (Prisma create/createMany/update/updateMany/delete/deleteMany, raw multi-row SQL, an
 * account's cascade delete, writes that change nothing) with folds at random points; then the same
 * under concurrency, where a shared counter row would make writers wait or deadlock.
 */
import { randomBytes } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { RequestKind, RequestStatus, SecurePaymentStatus } from "@/lib/generated/prisma/enums";
import { accountOverview } from "@/lib/requests/account-overview";
import { type CountSubject, foldStatusCounts, statusCounts } from "@/lib/requests/status-counts";
import { resetDb } from "@/tests/helpers/db";
import { makeAccount } from "@/tests/helpers/factories";
import { mulberry32 } from "@/tests/helpers/prng";

const KINDS: RequestKind[] = ["request", "payout"];
const STATUSES: RequestStatus[] = ["pending", "partially_paid", "paid"];
const LINK_STATUSES: SecurePaymentStatus[] = ["pending", "completed", "expired", "invalidated", "compliance_failed"];

function link(accountId: string, status: SecurePaymentStatus) {
  return {
    token: randomBytes(16).toString("hex"),
    accountId,
    status,
    direction: "incoming" as const,
    paymentType: "single" as const,
    network: "base",
    identityMode: "manual_dashboard" as const,
    expiresAt: new Date(Date.now() + 86_400_000),
  };
}

function row(accountId: string, kind: RequestKind, status: RequestStatus) {
  const id = `01${randomBytes(32).toString("hex")}`;
  return {
    id,
    accountId,
    kind,
    status,
    network: "base",
    invoiceCurrency: "USDC-base",
    paymentCurrency: "USDC-base",
    tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    amount: "1",
    expectedAmount: "1000000",
    payee: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    salt: "00",
    paymentReference: `0x${id.slice(2, 18)}`,
    referenceHash: `0x${id.slice(2)}`,
  };
}

/** The oracle: the tables counted directly, as the overview used to. */
async function counted(accountId: string): Promise<Record<string, number>> {
  const rows = await db().$queryRaw<{ subject: string; status: string; n: bigint }[]>`
    SELECT "kind"::text AS subject, "status"::text AS status, count(*) AS n FROM "PaymentRequest" WHERE "accountId" = ${accountId} GROUP BY 1, 2
    UNION ALL
    SELECT 'link', "status"::text, count(*) FROM "SecurePayment" WHERE "accountId" = ${accountId} GROUP BY 1, 2`;
  return Object.fromEntries(rows.map((r) => [`${r.subject}/${r.status}`, Number(r.n)]));
}

/** What statusCounts says for every subject and status there is, zeros left out as the oracle leaves them out. */
async function kept(accountId: string): Promise<Record<string, number>> {
  const c = await statusCounts(accountId);
  const keys: [CountSubject, string][] = [
    ...KINDS.flatMap((k) => STATUSES.map((s) => [k, s] as [CountSubject, string])),
    ...LINK_STATUSES.map((s) => ["link", s] as [CountSubject, string]),
  ];
  return Object.fromEntries(keys.map(([k, s]) => [`${k}/${s}`, c.count(k, s)]).filter(([, n]) => n !== 0));
}

beforeEach(async () => {
  await resetDb();
});

describe("request counts kept by Postgres", () => {
  it("equal count(*) per kind and status after every random write, folded or not", async () => {
    const seed = Number(process.env.STATUS_COUNTS_SEED ?? Date.now() % 1_000_000);
    const rnd = mulberry32(seed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    let accounts = [(await makeAccount()).id, (await makeAccount()).id, (await makeAccount()).id];
    const ops: string[] = [];
    for (let step = 0; step < 120; step++) {
      const accountId = pick(accounts);
      const mine = await db().paymentRequest.findMany({ where: { accountId }, select: { id: true } });
      const some = mine.filter(() => rnd() < 0.3).map((r) => r.id);
      const r = rnd();
      if (r < 0.2) {
        const n = 1 + Math.floor(rnd() * 30);
        await db().paymentRequest.createMany({ data: Array.from({ length: n }, () => row(accountId, pick(KINDS), pick(STATUSES))) });
        ops.push(`createMany ${n}`);
      } else if (r < 0.3) {
        await db().paymentRequest.create({ data: row(accountId, pick(KINDS), pick(STATUSES)) });
        ops.push("create");
      } else if (r < 0.45 && mine.length > 0) {
        await db().paymentRequest.update({ where: { id: pick(mine).id }, data: { status: pick(STATUSES) } });
        ops.push("update status");
      } else if (r < 0.55) {
        const res = await db().paymentRequest.updateMany({ where: { id: { in: some } }, data: { status: pick(STATUSES) } });
        ops.push(`updateMany ${res.count}`);
      } else if (r < 0.62) {
        // Raw SQL, several rows, kind and status at once; some rows may already have these values.
        await db()
          .$executeRaw`UPDATE "PaymentRequest" SET "kind" = ${pick(KINDS)}::"RequestKind", "status" = ${pick(STATUSES)}::"RequestStatus" WHERE "id" = ANY(${some})`;
        ops.push(`raw update ${some.length}`);
      } else if (r < 0.67 && mine.length > 0) {
        // An update that sets other columns only, and one that sets the status to what it is.
        const one = await db().paymentRequest.findUniqueOrThrow({ where: { id: pick(mine).id } });
        await db().paymentRequest.update({ where: { id: one.id }, data: { reference: "touched" } });
        await db().paymentRequest.update({ where: { id: one.id }, data: { status: one.status } });
        ops.push("no-op updates");
      } else if (r < 0.72 && mine.length > 0 && accounts.length > 1) {
        // A request moved to another account (nothing does this today; the counts must follow if it ever does).
        const to = pick(accounts.filter((a) => a !== accountId));
        await db().paymentRequest.update({ where: { id: pick(mine).id }, data: { accountId: to } });
        ops.push("move account");
      } else if (r < 0.8 && mine.length > 0) {
        await db().paymentRequest.delete({ where: { id: pick(mine).id } });
        ops.push("delete");
      } else if (r < 0.85) {
        const res = await db().paymentRequest.deleteMany({ where: { id: { in: some } } });
        ops.push(`deleteMany ${res.count}`);
      } else if (r < 0.88 && accounts.length > 1) {
        // The account goes, its requests with it (cascade): its counts go, and the -1 rows name no account.
        await db().account.delete({ where: { id: accountId } });
        accounts = [...accounts.filter((a) => a !== accountId), (await makeAccount()).id];
        ops.push("delete account");
      } else if (r < 0.93) {
        // Payment links: created in bulk, moved between statuses one and many at a time, deleted.
        const links = await db().securePayment.findMany({ where: { accountId }, select: { token: true } });
        const q = rnd();
        if (q < 0.35 || links.length === 0) {
          const n = 1 + Math.floor(rnd() * 10);
          await db().securePayment.createMany({ data: Array.from({ length: n }, () => link(accountId, pick(LINK_STATUSES))) });
          ops.push(`links createMany ${n}`);
        } else if (q < 0.6) {
          await db().securePayment.update({ where: { token: pick(links).token }, data: { status: pick(LINK_STATUSES) } });
          ops.push("link update");
        } else if (q < 0.85) {
          const tokens = links.filter(() => rnd() < 0.4).map((l) => l.token);
          await db().securePayment.updateMany({ where: { token: { in: tokens }, status: "pending" }, data: { status: "expired" } });
          ops.push(`links expire ${tokens.length}`);
        } else {
          await db().securePayment.delete({ where: { token: pick(links).token } });
          ops.push("link delete");
        }
      } else {
        ops.push(`fold ${await foldStatusCounts()}`);
      }
      for (const a of accounts) {
        expect(await kept(a), `seed ${seed}, step ${step}: ${ops.slice(-5).join(", ")}`).toEqual(await counted(a));
      }
    }
    await foldStatusCounts();
    for (const a of accounts) expect(await kept(a)).toEqual(await counted(a));
    // Folded: no appended row is left, and no count is kept for an account that is gone.
    expect(await db().statusCountDelta.count()).toBe(0);
    const orphans = await db().$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM "StatusCount" c WHERE NOT EXISTS (SELECT 1 FROM "Account" a WHERE a."id" = c."accountId")`;
    expect(Number(orphans[0]!.n)).toBe(0);
  }, 120_000);

  it("parallel writers of one account and folds at once: no error, exact counts", async () => {
    const accountId = (await makeAccount()).id;
    const seeded = Array.from({ length: 200 }, (_, i) => row(accountId, KINDS[i % 2]!, "pending"));
    await db().paymentRequest.createMany({ data: seeded });
    const ids = seeded.map((r) => r.id);
    // 24 transactions, each paying some requests in its own order (a shared counter row updated in
    // different orders is how such writers deadlock), creating new ones, while folds run.
    const writers = Array.from({ length: 24 }, (_, w) =>
      db().$transaction(async (tx) => {
        const mineIds = ids.filter((_, i) => i % 24 === w);
        for (const [j, id] of (w % 2 ? [...mineIds].reverse() : mineIds).entries()) {
          await tx.paymentRequest.update({ where: { id }, data: { status: j % 3 === 0 ? "partially_paid" : "paid" } });
        }
        await tx.paymentRequest.createMany({ data: [row(accountId, "payout", "pending"), row(accountId, "request", "paid")] });
      }),
    );
    const folds = Array.from({ length: 4 }, () => foldStatusCounts());
    // Settled, not Promise.all: a failing writer must not leave the others writing into the next test.
    const outcomes = await Promise.allSettled([...writers, ...folds]);
    expect(outcomes.filter((o) => o.status === "rejected")).toEqual([]);
    expect(await kept(accountId)).toEqual(await counted(accountId));
    await Promise.all([foldStatusCounts(), foldStatusCounts()]);
    expect(await kept(accountId)).toEqual(await counted(accountId));
    expect(await db().statusCountDelta.count()).toBe(0);
  }, 60_000);

  it("the overview's request, payout and link counts are these: before and after a fold", async () => {
    const accountId = (await makeAccount()).id;
    await db().paymentRequest.createMany({
      data: [
        ...Array.from({ length: 3 }, () => row(accountId, "request", "pending")),
        ...Array.from({ length: 2 }, () => row(accountId, "request", "partially_paid")),
        ...Array.from({ length: 4 }, () => row(accountId, "request", "paid")),
        ...Array.from({ length: 5 }, () => row(accountId, "payout", "paid")),
        row(accountId, "payout", "pending"),
      ],
    });
    await db().securePayment.createMany({
      data: [link(accountId, "completed"), link(accountId, "completed"), link(accountId, "pending"), link(accountId, "expired")],
    });
    const before = await accountOverview(accountId);
    expect(before.requests).toEqual({ pending: 3, partiallyPaid: 2, paid: 4 });
    expect(before.payouts).toEqual({ paid: 5 });
    expect(before.links).toEqual({ pending: 1, completed: 2 });
    await foldStatusCounts();
    const after = await accountOverview(accountId);
    expect(after.requests).toEqual(before.requests);
    expect(after.payouts).toEqual(before.payouts);
    expect(after.links).toEqual(before.links);
  });
});
