import { beforeEach, describe, expect, it } from "vitest";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { POST as createRequest, GET as listRequests } from "@/app/v2/request/route";
import { createSession } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { prefixedId } from "@/lib/ids";
import { resetDb } from "@/tests/helpers/db";
import { insertPaidRequest, makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

/**
 * GET /v2/request (issue 29 item 3): the account's requests, newest first, as GET /v2/request/{id}
 * shows each; `walletAddress` matches the payee or the payer in any EVM case; filters AND; pages
 * like GET /v2/payments; another account's requests never appear.
 */
const PAYEE = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const PAYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const OTHER = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const TRON_PAYEE = "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW";

let a: Awaited<ReturnType<typeof makeIntegrator>>;
let b: Awaited<ReturnType<typeof makeIntegrator>>;

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  b = await makeIntegrator();
});

const create = async (json: Record<string, unknown>, key = a.apiKey) => {
  const res = await call(createRequest, "/v2/request", {
    method: "POST",
    headers: { "x-api-key": key },
    json: { amount: "10", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base", payee: PAYEE, ...json },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.requestId as string;
};

const list = (query: Record<string, string> = {}, headers: Record<string, string> = { "x-api-key": a.apiKey }) =>
  call(listRequests, `/v2/request?${new URLSearchParams(query)}`, { headers });

const ids = (body: { requests: { requestId: string }[] }) => body.requests.map((r) => r.requestId);

/** Creation times one minute apart, oldest first, so "newest first" is checkable. */
async function spread(requestIds: string[]) {
  const base = Date.UTC(2026, 0, 1);
  for (const [i, id] of requestIds.entries())
    await db().paymentRequest.update({ where: { id }, data: { createdAt: new Date(base + i * 60_000) } });
}

describe("GET /v2/request", () => {
  it("lists the account's requests newest first, each as GET /v2/request/{id} shows it", async () => {
    const r1 = await create({ reference: "INV-1" });
    const r2 = await create({ payer: PAYER, payee: OTHER });
    const r3 = await create({ amount: "5", invoiceCurrency: "USDT-tron", paymentCurrency: "USDT-tron", payee: TRON_PAYEE });
    await create({}, b.apiKey); // another account's
    await spread([r1, r2, r3]);
    const res = await list();
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([r3, r2, r1]);
    expect(res.body.pagination).toEqual({ total: 3, limit: 20, offset: 0, hasMore: false });
    const one = await call(getRequest, `/v2/request/${r1}`, { headers: { "x-api-key": a.apiKey }, params: { requestId: r1 } });
    expect(res.body.requests[2]).toEqual(one.body);
  });

  it("walletAddress: requests whose payee or payer is the wallet, in any EVM case; never another account's", async () => {
    const asPayee = await create({});
    const asPayer = await create({ payee: OTHER, payer: PAYEE });
    const neither = await create({ payee: OTHER, payer: PAYER });
    const tron = await create({ amount: "5", invoiceCurrency: "USDT-tron", paymentCurrency: "USDT-tron", payee: TRON_PAYEE });
    // The other account has requests for the same wallet: they stay its own.
    await create({}, b.apiKey);
    await create({ payee: OTHER, payer: PAYEE }, b.apiKey);
    await spread([asPayee, asPayer, neither, tron]);
    for (const w of [PAYEE, PAYEE.toLowerCase(), `0x${PAYEE.slice(2).toUpperCase()}`]) {
      const res = await list({ walletAddress: w });
      expect(res.status, w).toBe(200);
      expect(ids(res.body), w).toEqual([asPayer, asPayee]);
      expect(res.body.pagination.total).toBe(2);
    }
    expect(ids((await list({ walletAddress: PAYER })).body)).toEqual([neither]);
    expect(ids((await list({ walletAddress: TRON_PAYEE })).body)).toEqual([tron]);
    expect((await list({ walletAddress: "0x000000000000000000000000000000000000dEaD" })).body).toEqual({
      requests: [],
      pagination: { total: 0, limit: 20, offset: 0, hasMore: false },
    });
    // The other account sees only its own two.
    const theirs = await list({ walletAddress: PAYEE }, { "x-api-key": b.apiKey });
    expect(theirs.body.pagination.total).toBe(2);
    expect(theirs.body.requests.every((r: { requestId: string }) => ![asPayee, asPayer].includes(r.requestId))).toBe(true);
  });

  it("a wallet that is payee and payer of one request lists it once; a stored lowercase payer matches too", async () => {
    const both = await create({ payer: PAYEE });
    const lower = await create({ payee: OTHER });
    await db().paymentRequest.update({ where: { id: lower }, data: { payer: PAYEE.toLowerCase() } });
    await spread([both, lower]);
    const res = await list({ walletAddress: PAYEE });
    expect(ids(res.body)).toEqual([lower, both]);
    expect(res.body.pagination.total).toBe(2);
  });

  it("pages with limit and offset, and the filters AND", async () => {
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push(await create({ reference: i % 2 === 0 ? "EVEN" : "ODD" }));
    const paid = await insertPaidRequest(a.account.id, "USDC-base", 1_000_000n, 0, { reference: "EVEN" });
    await db().paymentRequest.update({ where: { id: paid }, data: { payee: PAYEE } });
    await spread([...created, paid]);
    const all = [...created, paid].reverse();
    const p1 = await list({ walletAddress: PAYEE, limit: "3" });
    expect(ids(p1.body)).toEqual(all.slice(0, 3));
    expect(p1.body.pagination).toEqual({ total: 8, limit: 3, offset: 0, hasMore: true });
    const p3 = await list({ walletAddress: PAYEE, limit: "3", offset: "6" });
    expect(ids(p3.body)).toEqual(all.slice(6));
    expect(p3.body.pagination).toEqual({ total: 8, limit: 3, offset: 6, hasMore: false });
    expect(ids((await list({ limit: "3", offset: "3" })).body)).toEqual(all.slice(3, 6));

    const even = await list({ reference: "EVEN", walletAddress: PAYEE });
    expect(ids(even.body)).toEqual(all.filter((id) => id === paid || created.indexOf(id) % 2 === 0));
    const paidOnly = await list({ status: "paid", walletAddress: PAYEE });
    expect(ids(paidOnly.body)).toEqual([paid]);
    expect(paidOnly.body.pagination.total).toBe(1);
    expect(paidOnly.body.requests[0]).toMatchObject({ status: "paid", hasBeenPaid: true, payments: [expect.objectContaining({})] });
    expect(ids((await list({ status: "pending", reference: "ODD" })).body)).toEqual(all.filter((id) => created.indexOf(id) % 2 === 1));
    // Creation time, inclusive: the 3rd to the 5th request.
    const window = await list({ fromDate: "2026-01-01T00:02:00.000Z", toDate: "2026-01-01T00:04:00Z" });
    expect(ids(window.body)).toEqual([created[4], created[3], created[2]]);
  });

  it.each([
    [{ walletAddress: "0x123" }, "walletAddress", "EVM"],
    [{ walletAddress: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7d7" }, "walletAddress", "EVM"],
    [{ walletAddress: "Tnot-an-address" }, "walletAddress", "EVM"],
    [{ status: "settled" }, "status", ""],
    [{ limit: "0" }, "limit", "from 1 to 100"],
    [{ limit: "101" }, "limit", "from 1 to 100"],
    [{ offset: "-1" }, "offset", "integer"],
    [{ fromDate: "yesterday" }, "fromDate", "ISO 8601"],
    [{ fromDate: "2026-02-01T00:00:00Z", toDate: "2026-01-01T00:00:00Z" }, "toDate", "after or equal"],
  ])("%j → 400 naming %s", async (query, field, message) => {
    const res = await list(query as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
    expect(res.body.errors[0].message).toContain(message);
  });

  it("credentials: 401 without, 403 for a browser client ID; a backend client ID and a session list the account's", async () => {
    const id = await create({});
    expect((await list({}, {})).status).toBe(401);
    expect((await list({}, { "x-client-id": a.browserClientId, origin: "https://shop.example" })).status).toBe(403);
    expect(ids((await list({}, { "x-client-id": a.clientId })).body)).toEqual([id]);
    const user = await db().user.create({ data: { id: prefixedId("usr_"), accountId: a.account.id, email: "list@example.com" } });
    const session = (await createSession(user, "email")).token;
    expect(ids((await list({}, { cookie: `session_token=${session}` })).body)).toEqual([id]);
    expect(ids((await list({}, { "x-client-id": b.clientId })).body)).toEqual([]);
  });
});
