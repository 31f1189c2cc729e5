/**
 * The receipt email of a link (#30 item 5): `collectPayerEmail` on POST /v2/secure-payments and the public
 * POST /v2/secure-payments/{token}/payer-email — validated, only on a link that asks and while it can be
 * paid, never served back on the public views, shown to the merchant.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { POST as setPayerEmail } from "@/app/v2/secure-payments/[token]/payer-email/route";
import { GET as pageView } from "@/app/v2/secure-payments/[token]/route";
import { POST as createLink, GET as merchantView } from "@/app/v2/secure-payments/route";
import { db } from "@/lib/db";
import { recordTransfer } from "@/lib/detection/record-payment";
import { reloadEnv } from "@/lib/env";
import { getPaymentPage } from "@/lib/secure-payments/page-data";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const MERCHANT = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const EMAIL = "someone@customer.example";
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let session: string;

/** This server sends email (nothing is sent in these tests: no payment is swept); `null` switches it off. */
function useSmtp(url: string | null) {
  if (url) process.env.SMTP_URL = url;
  else delete process.env.SMTP_URL;
  reloadEnv();
}
afterAll(() => useSmtp(null));

beforeEach(async () => {
  useSmtp("smtp://127.0.0.1:2525");
  await resetDb();
  a = await makeIntegrator();
  session = await walletSessionToken(a.account.id, MERCHANT);
  const dest = await call(createDestination, "/v2/payee-destination", {
    method: "POST",
    headers: { authorization: `Bearer ${session}` },
    json: { currency: "USDC-base", walletAddress: MERCHANT },
  });
  expect(dest.status).toBe(201);
});

async function makeLink(extra: Record<string, unknown>) {
  const res = await call(createLink, "/v2/secure-payments", {
    method: "POST",
    headers: { "x-api-key": a.apiKey },
    json: { requests: [{ amount: "5" }], ...extra },
  });
  return res;
}

const give = (token: string, body: unknown) =>
  call(setPayerEmail, `/v2/secure-payments/${token}/payer-email`, { method: "POST", params: { token }, json: body });

describe("collectPayerEmail and the payer's email", () => {
  it("rejects a non-boolean collectPayerEmail with 400 naming it", async () => {
    const res = await makeLink({ collectPayerEmail: "yes" });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("collectPayerEmail");
  });

  it("without email on this server (no SMTP_URL): 400 naming collectPayerEmail, and an older link stops asking", async () => {
    const older = await makeLink({ collectPayerEmail: true });
    expect(older.status).toBe(201);
    useSmtp(null);
    const refused = await makeLink({ collectPayerEmail: true });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ errors: [expect.objectContaining({ field: "collectPayerEmail" })] });
    expect(JSON.stringify(refused.body)).toContain("SMTP_URL");
    expect((await makeLink({ collectPayerEmail: false })).status).toBe(201);
    // The page of a link made while mail was on no longer promises an emailed receipt, and the route refuses.
    expect(await getPaymentPage(older.body.token)).toMatchObject({ collectPayerEmail: false });
    expect((await give(older.body.token, { email: EMAIL })).status).toBe(409);
    useSmtp("smtp://127.0.0.1:2525");
    expect(await getPaymentPage(older.body.token)).toMatchObject({ collectPayerEmail: true });
  });

  it("saves the email, never shows it on the public views, shows it to the merchant", async () => {
    const created = await makeLink({ collectPayerEmail: true });
    expect(created.status).toBe(201);
    const { token } = created.body;
    const requestId = created.body.requestIds[0];
    expect(await getPaymentPage(token)).toMatchObject({ collectPayerEmail: true, payerEmailGiven: false });

    const bad = await give(token, { email: "not an email" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("email");
    expect((await give(token, { email: EMAIL, extra: 1 })).status).toBe(400);
    expect((await give(token, { email: `${"x".repeat(250)}@example.com` })).status).toBe(400);

    const ok = await give(token, { email: EMAIL });
    expect(ok).toMatchObject({ status: 200, body: { saved: true } });
    expect((await db().securePayment.findUniqueOrThrow({ where: { token } })).payerEmail).toBe(EMAIL);

    const pub = await call(pageView, `/v2/secure-payments/${token}`, { params: { token } });
    expect(pub.status).toBe(200);
    expect(JSON.stringify(pub.body)).not.toContain(EMAIL);
    expect(JSON.stringify(await getPaymentPage(token))).not.toContain(EMAIL);
    expect(await getPaymentPage(token)).toMatchObject({ payerEmailGiven: true });

    const mine = await call(merchantView, `/v2/secure-payments?requestId=${requestId}`, {
      headers: { authorization: `Bearer ${session}` },
    });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ collectPayerEmail: true, payerEmail: EMAIL });

    expect(await give(token, { email: "" })).toMatchObject({ status: 200, body: { saved: false } });
    expect((await db().securePayment.findUniqueOrThrow({ where: { token } })).payerEmail).toBeNull();
  });

  it("409 on a link that does not ask, and once the link is paid; 404 for an unknown token", async () => {
    const plain = await makeLink({});
    expect((await give(plain.body.token, { email: EMAIL })).status).toBe(409);
    expect((await give("01ARZ3NDEKTSV4RRFFQ69G5FAV", { email: EMAIL })).status).toBe(404);

    const asks = await makeLink({ collectPayerEmail: true });
    const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: asks.body.requestIds[0] } });
    await recordTransfer(request, {
      txHash: `0x${"b".repeat(64)}`,
      logIndex: 0,
      blockNumber: 1n,
      blockHash: `0x${"0".repeat(64)}`,
      blockTime: new Date(),
      proxyAddress: "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814",
      tokenAddress: request.tokenAddress,
      to: request.payee,
      amount: BigInt(request.expectedAmount.toFixed()),
      referenceHash: request.referenceHash,
      feeAmount: 0n,
      feeAddress: null,
      from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      txTo: null,
    });
    const late = await give(asks.body.token, { email: EMAIL });
    expect(late.status).toBe(409);
  });
});
