import { findTokenCurrency } from "@/lib/currencies/registry";
import { db } from "@/lib/db";
import { invalidField } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { formatAmount } from "@/lib/money";
import { kindOf } from "@/lib/payments/direction";

/**
 * The operator's account list (/admin/accounts): newest first, a page at a time, optionally
 * narrowed by a search. Every query is served by an index:
 * - the page: keyset on Account(createdAt DESC, id DESC), the cursor being an account ID;
 * - the search: an exact account ID (primary key), or a name (Account(name)), sign-in email or
 *   wallet (User's unique indexes) that starts with the query. Emails and EVM wallets are stored
 *   lowercase, so they match in any case; a name matches as typed, in lowercase, in capitals, or
 *   capitalised ("acme" finds "Acme Corp").
 * A prefix is matched as a btree range, `col >= p AND col < next(p)`, which an ordinary index serves
 * under any collation (a bare `LIKE 'p%'` only under the C collation, and Prisma cannot declare the
 * text_pattern_ops index that would serve it elsewhere), with `LIKE 'p%'` as the exact test. Under
 * the C collation (the embedded database, `initdb --locale=C`) the range holds every match; under a
 * linguistic one it may miss a value whose prefix is followed by characters the collation ignores.
 */
export const ACCOUNTS_PAGE_SIZE = 25;
export const MAX_QUERY_LENGTH = 200;

export interface AccountPageQuery {
  q?: string;
  /** The last account of the previous page: the next page starts after it. */
  after?: string;
  /** The first account of the following page: the previous page ends before it. */
  before?: string;
  take?: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();

/** The spellings of a name prefix tried against the index (a btree compares case-sensitively). */
function nameVariants(q: string): string[] {
  const title = q.toLowerCase().replace(/(^|\s)(\S)/g, (_, space: string, c: string) => space + c.toUpperCase());
  return [...new Set([q, q.toLowerCase(), q.toUpperCase(), capitalise(q), title])];
}

/** The first string after every string that starts with `p` (its last character, one code point up). */
function nextPrefix(p: string): string {
  const chars = [...p];
  const last = chars.pop()!.codePointAt(0)!;
  return chars.join("") + String.fromCodePoint(Math.min(last + 1, 0x10ffff));
}

/** `column` starts with `p`: a range an ordinary btree index serves, then the exact test. */
const startsWith = (column: Prisma.Sql, p: string) =>
  Prisma.sql`${column} >= ${p} AND ${column} < ${nextPrefix(p)} AND ${column} LIKE ${`${escapeLike(p)}%`}`;

/** The IDs of the accounts a query names, each branch on its own index. */
function hitsSql(q: string): Prisma.Sql {
  const name = Prisma.sql`name`;
  const wallet = Prisma.sql`"walletAddress"`;
  return Prisma.join(
    [
      Prisma.sql`SELECT id FROM "Account" WHERE id = ${q}`,
      ...nameVariants(q).map((v) => Prisma.sql`SELECT id FROM "Account" WHERE ${startsWith(name, v)}`),
      Prisma.sql`SELECT "accountId" FROM "User" WHERE ${startsWith(Prisma.sql`email`, q.toLowerCase())}`,
      ...[...new Set([q, q.toLowerCase()])].map((v) => Prisma.sql`SELECT "accountId" FROM "User" WHERE ${startsWith(wallet, v)}`),
    ],
    " UNION ",
  );
}

export interface AccountPage {
  accounts: Awaited<ReturnType<typeof accountRows>>;
  /** Accounts the query matches (all accounts without one). */
  total: number;
  /** Cursor of the next page (`after`), or null on the last one. */
  next: string | null;
  /** Cursor of the previous page (`before`), or null on the first one. */
  prev: string | null;
}

function accountRows(ids: string[]) {
  return db().account.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      name: true,
      logoUrl: true,
      createdAt: true,
      users: { select: { email: true, walletAddress: true, isAdmin: true } },
      _count: { select: { apiKeys: true, clientIds: true, orchestratorKeys: true, requests: true } },
    },
  });
}

interface PageSql {
  /** The IDs of the page (and one more: is there another page?), in the direction of travel. */
  page: Prisma.Sql;
  count: Prisma.Sql;
  take: number;
  cursor: string | null;
  backwards: boolean;
}

/** The two statements of a page (exported for the test that explains their plans). */
export function accountPageSql(query: AccountPageQuery = {}): PageSql {
  const q = (query.q ?? "").trim();
  if (q.length > MAX_QUERY_LENGTH) throw invalidField("q", `must be at most ${MAX_QUERY_LENGTH} characters`);
  if (query.after && query.before) throw invalidField("before", "use either after or before, not both");
  const take = Math.min(Math.max(query.take ?? ACCOUNTS_PAGE_SIZE, 1), 100);
  const cursor = query.after ?? query.before ?? null;
  const backwards = Boolean(query.before);
  const scope = q ? Prisma.sql`JOIN (${hitsSql(q)}) hits(id) ON hits.id = a.id` : Prisma.empty;
  // A cursor that names no account (deleted meanwhile, or typed by hand) compares with NULL: an empty page.
  const keyset = !cursor
    ? Prisma.empty
    : backwards
      ? Prisma.sql`WHERE (a."createdAt", a.id) > (SELECT "createdAt", id FROM "Account" WHERE id = ${cursor})`
      : Prisma.sql`WHERE (a."createdAt", a.id) < (SELECT "createdAt", id FROM "Account" WHERE id = ${cursor})`;
  const order = backwards ? Prisma.sql`a."createdAt" ASC, a.id ASC` : Prisma.sql`a."createdAt" DESC, a.id DESC`;
  return {
    page: Prisma.sql`SELECT a.id FROM "Account" a ${scope} ${keyset} ORDER BY ${order} LIMIT ${take + 1}`,
    count: Prisma.sql`SELECT count(*) AS n FROM "Account" a ${scope}`,
    take,
    cursor,
    backwards,
  };
}

/** One page of accounts, newest first, optionally narrowed by `q` (see the module comment). */
export async function searchAccounts(query: AccountPageQuery = {}): Promise<AccountPage> {
  const { page, count, take, cursor, backwards } = accountPageSql(query);
  const [found, counted] = await Promise.all([db().$queryRaw<{ id: string }[]>(page), db().$queryRaw<{ n: bigint }[]>(count)]);
  const more = found.length > take;
  const pageIds = found.slice(0, take).map((r) => r.id);
  if (backwards) pageIds.reverse();
  const rows = await accountRows(pageIds);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const accounts = pageIds.flatMap((id) => byId.get(id) ?? []);
  const first = pageIds[0] ?? null;
  const last = pageIds.at(-1) ?? null;
  return {
    accounts,
    total: Number(counted[0]?.n ?? 0),
    // Going forward, a previous page exists when we came from one; going back, the cursor's page follows.
    next: backwards ? last : more ? last : null,
    prev: backwards ? (more ? first : null) : cursor ? first : null,
  };
}

export interface VolumeLine {
  /** The payment currency (the request's), e.g. USDC-sepolia. */
  currency: string;
  payments: number;
  /** Base units of the token. */
  units: string;
  /** The same in the token's decimals ("1250.5"), or the base units when the currency is unknown here. */
  amount: string;
}

/**
 * Incoming volume per account and payment currency: what the account received as payee — the
 * payments on its requests of kind `request` (lib/payments/direction.ts: `incoming`). Payouts
 * (kind `payout`: single, batch, payout links and recurring payments, money the account sent) are
 * not counted, nor fees (a payment's fee leg goes to the fee address, not the payee: the rollup
 * sums `Payment.amount` only). Read from the daily rollup PaymentDaily (written with each payment),
 * by its primary key's leading accountId, not from every payment.
 */
export async function incomingVolume(accountIds: string[]): Promise<Map<string, VolumeLine[]>> {
  const out = new Map<string, VolumeLine[]>(accountIds.map((id) => [id, []]));
  if (accountIds.length === 0) return out;
  const rows = await db().$queryRaw<{ accountId: string; currency: string; payments: number; units: string }[]>`
    SELECT "accountId", currency, sum(count)::int AS payments, sum(amount)::text AS units
    FROM "PaymentDaily"
    WHERE "accountId" = ANY(${accountIds}) AND kind = ${kindOf("incoming")}::"RequestKind"
    GROUP BY "accountId", currency
    ORDER BY currency`;
  for (const r of rows) {
    const token = findTokenCurrency(r.currency)?.token;
    const amount = token ? formatAmount(BigInt(r.units), token.decimals) : r.units;
    out.get(r.accountId)?.push({ currency: r.currency, payments: r.payments, units: r.units, amount });
  }
  return out;
}
