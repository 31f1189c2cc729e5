/**
 * Receipts by email (#30 item 5) against a real SMTP server started here (tests/mail/smtp-sink.ts):
 * a link's payment confirmed as detection records it (recordTransfer, no chain) → the payer's receipt
 * with the PDF attached and the payee's notice arrive, once; a re-run sends nothing more; SMTP down →
 * retried and delivered once it is up; a permanent refusal is not retried; without SMTP_URL nothing
 * is sent and nothing fails; a hostile merchant name is escaped in the HTML.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { POST as setPayerEmail } from "@/app/v2/secure-payments/[token]/payer-email/route";
import { POST as createLink } from "@/app/v2/secure-payments/route";
import { db } from "@/lib/db";
import { recordTransfer } from "@/lib/detection/record-payment";
import { reloadEnv } from "@/lib/env";
import { ulid } from "@/lib/ids";
import { MAIL_RETRY_DELAYS_MS } from "@/lib/mail/deliver";
import { sweepMail } from "@/lib/mail/sweep";
import { closeMailTransport } from "@/lib/mail/transport";
import { settleSecurePayments } from "@/lib/secure-payments/settle";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { decodeBody, freePort, leafParts, type SmtpSink, splitMessage, startSmtpSink } from "@/tests/mail/smtp-sink";

const MERCHANT = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const CUSTOMER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const PROXY = "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814";
const PAYER_EMAIL = "payer@customer.example";
const OWNER_EMAIL = "owner@shop.example";

let a: Awaited<ReturnType<typeof makeIntegrator>>;
let sink: SmtpSink | null = null;
let n = 0;

function useSmtp(url: string | null) {
  if (url) process.env.SMTP_URL = url;
  else delete process.env.SMTP_URL;
  process.env.MAIL_FROM = "Shop receipts <receipts@shop.example>";
  reloadEnv();
}

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  await db().user.create({ data: { id: ulid(), accountId: a.account.id, email: OWNER_EMAIL } });
  const session = await walletSessionToken(a.account.id, MERCHANT);
  const dest = await call(createDestination, "/v2/payee-destination", {
    method: "POST",
    headers: { authorization: `Bearer ${session}` },
    json: { currency: "USDC-base", walletAddress: MERCHANT },
  });
  expect(dest.status, JSON.stringify(dest.body)).toBe(201);
});

afterEach(async () => {
  closeMailTransport();
  await sink?.close();
  sink = null;
  useSmtp(null);
  delete process.env.MAIL_FROM;
  reloadEnv();
});

async function makeLink(amount: string, extra: Record<string, unknown> = { collectPayerEmail: true }) {
  const res = await call(createLink, "/v2/secure-payments", {
    method: "POST",
    headers: { "x-api-key": a.apiKey },
    json: { requests: [{ amount }], reference: "ORDER-7", ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { token: res.body.token as string, requestId: res.body.requestIds[0] as string };
}

const giveEmail = (token: string, email: string) =>
  call(setPayerEmail, `/v2/secure-payments/${token}/payer-email`, { method: "POST", params: { token }, json: { email } });

/** Pays the request in full from a wallet, as detection records the transfer, then settles the link. */
async function pay(requestId: string) {
  n += 1;
  const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
  const ev = {
    txHash: `0x${n.toString(16).padStart(64, "a")}`,
    logIndex: 0,
    blockNumber: BigInt(n),
    blockHash: `0x${"0".repeat(64)}`,
    blockTime: new Date(),
    proxyAddress: PROXY,
    tokenAddress: USDC,
    to: request.payee,
    amount: BigInt(request.expectedAmount.toFixed()),
    referenceHash: request.referenceHash,
    feeAmount: 0n,
    feeAddress: null,
    from: CUSTOMER,
    txTo: PROXY,
  };
  expect(await recordTransfer(request, ev)).toBe("recorded");
  await settleSecurePayments([requestId]);
  return ev;
}

const byRecipient = (to: string) => sink!.messages.filter((m) => m.to.includes(to));

describe("receipts by email", () => {
  it("a confirmed payment sends the payer's receipt with its PDF and the payee's notice, once", async () => {
    sink = await startSmtpSink();
    useSmtp(sink.url);
    const link = await makeLink("12.5");
    expect((await giveEmail(link.token, PAYER_EMAIL)).status).toBe(200);
    const ev = await pay(link.requestId);

    const swept = await sweepMail();
    expect(swept).toMatchObject({ events: 1, planned: 2, sent: 2, retried: 0, failed: 0 });
    expect(sink.messages).toHaveLength(2);

    const [payer] = byRecipient(PAYER_EMAIL);
    const top = splitMessage(payer!.raw);
    expect(payer!.from).toBe("receipts@shop.example");
    expect(top.headers.from).toBe("Shop receipts <receipts@shop.example>");
    expect(top.headers.to).toBe(PAYER_EMAIL);
    expect(top.headers.subject).toContain("12.5 USDC");
    expect(top.headers["content-type"]).toMatch(/^multipart\/mixed;/);
    const parts = leafParts(top);
    const pdf = parts.find((p) => /attachment/.test(p.headers["content-disposition"] ?? ""));
    expect(pdf?.headers["content-type"]).toMatch(/^application\/pdf/);
    expect(pdf?.headers["content-disposition"]).toMatch(/filename="?receipt-rcp_[0-9a-z]+\.pdf"?/);
    expect(decodeBody(pdf!).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = decodeBody(parts.find((p) => p.headers["content-type"]?.startsWith("text/plain"))!).toString("utf8");
    expect(text).toContain("12.5 USDC");
    expect(text).toContain(ev.txHash);
    expect(text).toMatch(/Verify this receipt: http:\/\/localhost:\d+\/receipts\/rcp_/);

    const [payee] = byRecipient(OWNER_EMAIL);
    const payeeTop = splitMessage(payee!.raw);
    expect(payeeTop.headers.subject).toBe("Payment received: 12.5 USDC (ORDER-7)");
    expect(payeeTop.headers["content-type"]).toMatch(/^multipart\/alternative;/);
    const payeeText = decodeBody(leafParts(payeeTop).find((p) => p.headers["content-type"]?.startsWith("text/plain"))!).toString();
    expect(payeeText).toContain(`Transaction: ${ev.txHash}`);
    expect(payeeText).toContain(`/pay/${link.token}`);
    expect(payeeText).toContain(`Payer: ${CUSTOMER}`);
    expect(payeeText).toMatch(/The receipt: http:\/\/localhost:\d+\/receipts\/rcp_/);

    // Again: the worker's next sweep, the same transfer seen again by detection, and the event planned a second time.
    await sweepMail();
    const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: link.requestId } });
    expect(await recordTransfer(request, ev)).toBe("duplicate");
    await db().outboxEvent.updateMany({ data: { mailPlannedAt: null } });
    expect(await sweepMail()).toMatchObject({ events: 1, planned: 0, sent: 0 });
    expect(sink.messages).toHaveLength(2);
    const rows = await db().mailMessage.findMany({ orderBy: { kind: "asc" } });
    expect(rows.map((r) => [r.kind, r.to, r.status, r.attempts])).toEqual([
      ["payer_receipt", PAYER_EMAIL, "sent", 1],
      ["payee_notification", OWNER_EMAIL, "sent", 1],
    ]);
  });

  it("a link that collected no email: the payee's notice only", async () => {
    sink = await startSmtpSink();
    useSmtp(sink.url);
    const link = await makeLink("3", {});
    expect((await giveEmail(link.token, PAYER_EMAIL)).status).toBe(409);
    await pay(link.requestId);
    expect(await sweepMail()).toMatchObject({ planned: 1, sent: 1 });
    expect(sink.messages.map((m) => m.to)).toEqual([[OWNER_EMAIL]]);
  });

  it("SMTP down: retried with backoff, delivered once it is up", async () => {
    const port = await freePort();
    useSmtp(`smtp://127.0.0.1:${port}`);
    const link = await makeLink("7");
    await giveEmail(link.token, PAYER_EMAIL);
    await pay(link.requestId);
    const t0 = new Date();
    expect(await sweepMail({ now: t0 })).toMatchObject({ planned: 2, sent: 0, retried: 2 });
    const failed = await db().mailMessage.findMany();
    for (const m of failed) {
      expect(m).toMatchObject({ status: "pending", attempts: 1, sentAt: null });
      expect(m.lastError).toMatch(/ECONNECTION|ECONNREFUSED/);
      expect(m.nextAttemptAt.getTime()).toBe(t0.getTime() + MAIL_RETRY_DELAYS_MS[0]);
    }
    sink = await startSmtpSink({ port });
    // Not due yet: nothing is tried before the backoff has passed.
    expect(await sweepMail({ now: new Date(t0.getTime() + 1_000) })).toMatchObject({ claimed: 0 });
    expect(sink.messages).toHaveLength(0);
    expect(await sweepMail({ now: new Date(t0.getTime() + MAIL_RETRY_DELAYS_MS[0] + 1) })).toMatchObject({ sent: 2 });
    expect(sink.messages.map((m) => m.to[0]).sort()).toEqual([OWNER_EMAIL, PAYER_EMAIL]);
    expect((await db().mailMessage.findMany()).map((m) => [m.status, m.attempts])).toEqual([
      ["sent", 2],
      ["sent", 2],
    ]);
  });

  it("a recipient the server refuses for good (550) is not retried", async () => {
    sink = await startSmtpSink({ rejectRcpt: /^payer@/ });
    useSmtp(sink.url);
    const link = await makeLink("7");
    await giveEmail(link.token, PAYER_EMAIL);
    await pay(link.requestId);
    expect(await sweepMail()).toMatchObject({ sent: 1, failed: 1, retried: 0 });
    const payer = await db().mailMessage.findFirstOrThrow({ where: { kind: "payer_receipt" } });
    expect(payer).toMatchObject({ status: "failed", attempts: 1 });
    expect(payer.lastError).toContain("550");
  });

  it("without SMTP_URL nothing is sent and nothing fails; enabling it later sends no old receipts", async () => {
    // A link made while mail was on (a link cannot ask for an email without it), paid after it was switched off.
    useSmtp("smtp://127.0.0.1:2525");
    const link = await makeLink("7");
    await giveEmail(link.token, PAYER_EMAIL);
    useSmtp(null);
    await pay(link.requestId);
    expect(await sweepMail()).toEqual({ events: 1, planned: 0, claimed: 0, sent: 0, retried: 0, failed: 0 });
    expect(await db().mailMessage.count()).toBe(0);
    sink = await startSmtpSink();
    useSmtp(sink.url);
    expect(await sweepMail()).toMatchObject({ events: 0, planned: 0, sent: 0 });
    expect(sink.messages).toHaveLength(0);
  });

  it("a hostile merchant name is escaped in the HTML", async () => {
    sink = await startSmtpSink();
    useSmtp(sink.url);
    const hostile = `<img src=x onerror="alert(1)"> Bob's & "Sons"`;
    await db().account.update({ where: { id: a.account.id }, data: { name: hostile } });
    const link = await makeLink("1", { collectPayerEmail: true, description: "Two <b>mugs</b>" });
    await giveEmail(link.token, PAYER_EMAIL);
    await pay(link.requestId);
    await sweepMail();
    expect(sink.messages).toHaveLength(2);
    for (const m of sink.messages) {
      const html = decodeBody(leafParts(splitMessage(m.raw)).find((p) => p.headers["content-type"]?.startsWith("text/html"))!).toString();
      expect(html).not.toContain("<img");
      expect(html).not.toContain("<b>");
      expect(html).toContain("&#60;img src=x onerror=&#34;alert(1)&#34;&#62; Bob&#39;s &#38; &#34;Sons&#34;");
    }
  });
});
