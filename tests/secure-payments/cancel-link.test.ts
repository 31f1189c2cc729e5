/**
 * A merchant's links list and cancel (the dashboard's links page, issue 27 item 5): cancelling is
 * scoped to the account (another account's link reads as not found), a cancelled link refuses
 * payment on every path the payer has (page view closed, pay plan and deposit address 409), a
 * paid or partly paid link cannot be cancelled, and the list filters by status and text, page by
 * page. A real devnet payment also shows payment.confirmed carrying the merchant's reference.
 */
import { createPublicClient, http, type PublicClient } from "viem";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { POST as depositAddress } from "@/app/v2/secure-payments/[token]/deposit-address/route";
import { GET as payLink } from "@/app/v2/secure-payments/[token]/pay/route";
import { GET as pageView } from "@/app/v2/secure-payments/[token]/route";
import { POST as createLink } from "@/app/v2/secure-payments/route";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { sweepExpiry } from "@/lib/jobs/expire";
import { listAccountLinks } from "@/lib/secure-payments/account-links";
import { cancelSecurePayment } from "@/lib/secure-payments/cancel";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { payLinkOnDevnet } from "@/tests/helpers/pay-link";

let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let b: Awaited<ReturnType<typeof makeIntegrator>>;

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }) as PublicClient;
}, 60_000);
afterAll(() => stopDevnet(devnet));
afterEach(() => setClock(null));

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  b = await makeIntegrator();
  // One wallet user per account (a wallet signs in to one account): B receives at the payer's address.
  for (const [who, wallet] of [
    [a, devnet.accounts.payee.address],
    [b, devnet.accounts.payer.address],
  ] as const) {
    const dest = await call(createDestination, "/v2/payee-destination", {
      method: "POST",
      headers: { authorization: `Bearer ${await walletSessionToken(who.account.id, wallet)}` },
      json: { currency: "USDC-sepolia", walletAddress: wallet },
    });
    expect(dest.status).toBe(201);
  }
});

async function makeLink(amount: string, reference?: string, clientId = a.clientId): Promise<{ token: string; requestIds: string[] }> {
  const res = await call(createLink, "/v2/secure-payments", {
    method: "POST",
    headers: { "x-client-id": clientId },
    json: { requests: [{ amount }], ...(reference ? { reference } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const view = (token: string) => call(pageView, `/v2/secure-payments/${token}`, { params: { token } });
const plan = (token: string) =>
  call(payLink, `/v2/secure-payments/${token}/pay?wallet=${devnet.accounts.payer.address}`, { params: { token } });

async function refusal(p: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, message: err.message };
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("cancelling a payment link", () => {
  it("another account's link reads as not found and is left as it was", async () => {
    const link = await makeLink("12", "A-1");
    expect(await refusal(cancelSecurePayment(b.account.id, link.token, "test"))).toEqual({
      status: 404,
      message: "Payment link not found",
    });
    expect(await refusal(cancelSecurePayment(a.account.id, "01NOPE", "test"))).toMatchObject({ status: 404 });
    const row = await db().securePayment.findUniqueOrThrow({ where: { token: link.token } });
    expect(row).toMatchObject({ status: "pending", cancelledAt: null });
    expect((await plan(link.token)).status).toBe(200);
  });

  it("a cancelled link is closed on every path a payer has, reads expired in the API, and is audited", async () => {
    const link = await makeLink("12", "A-2");
    const at = new Date(Date.now() + 60_000);
    setClock(() => at.getTime());
    const done = await cancelSecurePayment(a.account.id, link.token, "user:usr_1 a@example.com");
    expect(done).toEqual({ token: link.token, cancelledAt: at });
    expect(await db().securePayment.findUniqueOrThrow({ where: { token: link.token } })).toMatchObject({
      status: "expired",
      expiresAt: at,
      cancelledAt: at,
    });
    const v = await view(link.token);
    expect(v.status).toBe(200);
    expect(v.body.status).toBe("expired");
    expect(v.body.checkout.status).toBe("expired");
    const p = await plan(link.token);
    expect(p.status).toBe(409);
    expect(p.body.message).toBe("This payment link is expired");
    const d = await call(depositAddress, `/v2/secure-payments/${link.token}/deposit-address`, {
      method: "POST",
      params: { token: link.token },
    });
    expect(d.status).toBe(409);
    // Cancelled twice: the second says why, and nothing changes.
    expect(await refusal(cancelSecurePayment(a.account.id, link.token, "test"))).toEqual({
      status: 409,
      message: "This payment link is expired: only a pending link can be cancelled",
    });
    // The expiry sweep leaves it alone (it is already final).
    await sweepExpiry();
    expect((await db().securePayment.findUniqueOrThrow({ where: { token: link.token } })).cancelledAt).toEqual(at);
    const audit = await db().adminAuditEntry.findMany({ where: { target: link.token } });
    expect(audit.map((e) => [e.action, e.actor, e.accountId])).toEqual([
      ["secure_payment.cancel", "user:usr_1 a@example.com", a.account.id],
    ]);
  });

  it("a paid or partly paid link cannot be cancelled; payment.confirmed carries the link's reference", async () => {
    const link = await makeLink("3.5", "ORDER-REF-9");
    await payLinkOnDevnet(devnet, pub, link.token);
    const events = await db().outboxEvent.findMany({ where: { requestId: link.requestIds[0], type: "payment.confirmed" } });
    expect(events).toHaveLength(1);
    const body = JSON.parse(events[0]!.payload);
    expect(body).toMatchObject({ event: "payment.confirmed", requestId: link.requestIds[0], reference: "ORDER-REF-9", amount: "3.5" });
    expect(await refusal(cancelSecurePayment(a.account.id, link.token, "test"))).toMatchObject({
      status: 409,
      message: expect.stringMatching(/^This payment link is completed|^A payment has already been received/),
    });

    const partly = await makeLink("10", "PART-1");
    await db().paymentRequest.update({ where: { id: partly.requestIds[0] }, data: { status: "partially_paid", amountPaid: 4_000_000 } });
    expect(await refusal(cancelSecurePayment(a.account.id, partly.token, "test"))).toEqual({
      status: 409,
      message: "A payment has already been received on this link: it can no longer be cancelled",
    });
    const sent = await makeLink("10", "SENT-1");
    await db().securePayment.update({ where: { token: sent.token }, data: { intentTxHash: `0x${"ab".repeat(32)}` } });
    expect((await refusal(cancelSecurePayment(a.account.id, sent.token, "test"))).message).toMatch(/already sent a payment transaction/);
    // The list offers Cancel only where it would work, saying why elsewhere.
    const { links } = await listAccountLinks(a.account.id);
    const byRef = new Map(links.map((l) => [l.reference, l.cancelRefusal]));
    expect(byRef.get("PART-1")).toMatch(/already been received/);
    expect(byRef.get("SENT-1")).toMatch(/already sent/);
  });
});

describe("the links list", () => {
  it("filters by status (pending, paid, expired, cancelled) and by reference or amount, one page at a time", async () => {
    const base = Date.now();
    let tick = 0;
    // Distinct creation times, oldest first.
    const made: { token: string; requestIds: string[] }[] = [];
    for (const [amount, ref] of [
      ["25", "INV-1001"],
      ["25.50", "INV-1002"],
      ["7", "ORDER-77"],
      ["1000", "INV-1003"],
      ["9", undefined],
    ] as const) {
      setClock(() => base + tick++ * 1000);
      made.push(await makeLink(amount, ref));
    }
    setClock(null);
    await makeLink("25", "B-ONLY", b.clientId);
    const [inv1001, inv1002, order77, inv1003] = made;
    await cancelSecurePayment(a.account.id, inv1002!.token, "test");
    await db().securePayment.update({ where: { token: order77!.token }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    await db().securePayment.update({ where: { token: inv1003!.token }, data: { status: "completed", completedAt: new Date() } });

    const refs = async (q: Parameters<typeof listAccountLinks>[1]) =>
      (await listAccountLinks(a.account.id, q)).links.map((l) => l.reference);
    expect(await refs({})).toEqual([null, "INV-1003", "ORDER-77", "INV-1002", "INV-1001"]);
    expect(await refs({ status: "pending" })).toEqual([null, "INV-1001"]);
    expect(await refs({ status: "paid" })).toEqual(["INV-1003"]);
    // Past its expiry but not yet swept: expired already (the one expiry rule); a cancelled link is not "expired".
    expect(await refs({ status: "expired" })).toEqual(["ORDER-77"]);
    expect(await refs({ status: "cancelled" })).toEqual(["INV-1002"]);
    await sweepExpiry();
    expect(await refs({ status: "expired" })).toEqual(["ORDER-77"]);
    expect(await refs({ status: "cancelled" })).toEqual(["INV-1002"]);

    expect(await refs({ q: "inv-100" })).toEqual(["INV-1003", "INV-1002", "INV-1001"]);
    expect(await refs({ q: "25" })).toEqual(["INV-1001"]);
    expect(await refs({ q: "25.5" })).toEqual(["INV-1002"]);
    expect(await refs({ q: "1,000" })).toEqual(["INV-1003"]);
    expect(await refs({ q: "25.500" })).toEqual(["INV-1002"]);
    expect(await refs({ q: "7.00" })).toEqual(["ORDER-77"]);
    expect(await refs({ q: "100%" })).toEqual([]);
    expect(await refs({ q: "INV", status: "pending" })).toEqual(["INV-1001"]);
    expect(await refs({ q: "B-ONLY" })).toEqual([]);
    expect(await refs({ q: inv1001!.token })).toEqual(["INV-1001"]);

    const p1 = await listAccountLinks(a.account.id, { pageSize: 2 });
    expect([p1.page, p1.pageCount, p1.total, p1.links.map((l) => l.reference)]).toEqual([1, 3, 5, [null, "INV-1003"]]);
    const p3 = await listAccountLinks(a.account.id, { pageSize: 2, page: 3 });
    expect(p3.links.map((l) => l.reference)).toEqual(["INV-1001"]);
    // Past the end: the last page.
    expect((await listAccountLinks(a.account.id, { pageSize: 2, page: 99 })).page).toBe(3);
    const row = p3.links[0]!;
    expect(row.url).toBe(`http://localhost:3000/pay/${inv1001!.token}`);
    expect(row.cancelRefusal).toBeNull();
    expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });
});
