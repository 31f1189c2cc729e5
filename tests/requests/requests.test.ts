import { beforeEach, describe, expect, it } from "vitest";
import { GET as payRequest } from "@/app/v2/request/[requestId]/pay/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { GET as getRoutes } from "@/app/v2/request/[requestId]/routes/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { computePaymentReference, referenceTopic } from "@/lib/payments/reference";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const PAYEE = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const TRON_PAYEE = "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW";
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let b: Awaited<ReturnType<typeof makeIntegrator>>;

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  b = await makeIntegrator();
});

const post = (json: unknown, key = a.apiKey) => call(createRequest, "/v2/request", { method: "POST", headers: { "x-api-key": key }, json });
const get = (id: string, key = a.apiKey) =>
  call(getRequest, `/v2/request/${id}`, { headers: { "x-api-key": key }, params: { requestId: id } });

describe("POST /v2/request", () => {
  it("creates a request with a protocol-style ID and payment reference", async () => {
    const res = await post({
      amount: "12.5",
      invoiceCurrency: "USDC-base",
      paymentCurrency: "USDC-base",
      payee: PAYEE.toLowerCase(),
      reference: "INV-1",
    });
    expect(res.status).toBe(201);
    expect(res.body.requestId).toMatch(/^01[0-9a-f]{64}$/);
    expect(res.body.paymentReference).toMatch(/^0x[0-9a-f]{16}$/);
    const status = await get(res.body.requestId);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      requestId: res.body.requestId,
      paymentReference: res.body.paymentReference,
      hasBeenPaid: false,
      status: "pending",
      isListening: true,
      txHash: null,
      payee: PAYEE,
      network: "base",
      expectedAmount: "12.5",
      totalAmountPaid: "0",
      payments: [],
      reference: "INV-1",
      fees: null,
    });
  });

  it("converts USD invoices 1:1 into a stablecoin's decimals", async () => {
    const res = await post({ amount: "10.25", invoiceCurrency: "USD", paymentCurrency: "USDC-bsc", payee: PAYEE });
    expect(res.status).toBe(201);
    expect((await get(res.body.requestId)).body.expectedAmount).toBe("10.25");
  });

  it("accepts Tron requests with base58 payees", async () => {
    const res = await post({ amount: "5", invoiceCurrency: "USDT-tron", paymentCurrency: "USDT-tron", payee: TRON_PAYEE });
    expect(res.status).toBe(201);
  });

  it.each([
    [{ amount: "0" }, "amount", "greater than 0"],
    [{ amount: "-1" }, "amount", "positive decimal"],
    [{ amount: "abc" }, "amount", "positive decimal"],
    [{ amount: "1e3" }, "amount", "positive decimal"],
    [{ amount: 5 }, "amount", ""],
    [{ amount: "1.1234567" }, "amount", "more than 6 decimal places"],
    [{ payee: "0x123" }, "payee", "20-byte"],
    [{ payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D8" }, "payee", "checksum"],
    [{ payee: TRON_PAYEE }, "payee", "Tron address cannot receive"],
    [{ paymentCurrency: "USDC-nowhere", invoiceCurrency: "USDC-nowhere" }, "paymentCurrency", "Unknown currency"],
    [{ invoiceCurrency: "DOGE" }, "invoiceCurrency", "Unknown currency"],
    [{ invoiceCurrency: "USDC-matic" }, "paymentCurrency", "not on the invoice currency's network"],
    [{ invoiceCurrency: "CHF" }, "invoiceCurrency", "not an invoice currency here"],
    [{ paymentCurrency: "AAVE-mainnet" }, "paymentCurrency", "only the listed tokens on the 8 networks are payable"],
    [{ invoiceCurrency: "GBP", paymentCurrency: "USDT0-arbitrum-one" }, "paymentCurrency", "conversion payments take"],
    [{ invoiceCurrency: "JPY", paymentCurrency: "USDC-base", amount: "10.5" }, "amount", "more than 0 decimal places"],
    [{ paymentCurrency: "USD" }, "paymentCurrency", "token currency"],
    [{ feePercentage: "2.5" }, "feeAddress", "required"],
    [{ feePercentage: "101", feeAddress: PAYEE }, "feePercentage", "at most 100"],
    [{ payee: undefined }, "payee", "required"],
    [{ extra: 1 }, "extra", "Unknown field"],
  ])("rejects %j with 400 naming %s", async (patch, field, message) => {
    const res = await post({ amount: "10", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base", payee: PAYEE, ...patch });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors[0].field).toBe(field);
    expect(res.body.errors[0].message).toContain(message);
  });

  it("accepts EUR invoices paid in USDC through the conversion proxy (no RPC: the configuration decides)", async () => {
    const res = await post({ amount: "100", invoiceCurrency: "EUR", paymentCurrency: "USDC-base", payee: PAYEE });
    expect(res.status).toBe(201);
    const s = (await get(res.body.requestId)).body;
    expect(s).toMatchObject({
      invoiceCurrency: "EUR",
      expectedAmount: "100",
      totalAmountPaid: "0",
      amountInUsd: null, // no rate without an RPC for base
      conversionRate: null,
      rateSource: "chainlink",
      conversionBreakdown: { paidAmount: "0", remainingAmount: "100", currentMarketRate: null, payments: [] },
    });
    // The calldata needs the rate: without an RPC, 503.
    const pay = await call(payRequest, `/v2/request/${res.body.requestId}/pay`, {
      headers: { "x-api-key": a.apiKey },
      params: { requestId: res.body.requestId },
    });
    expect(pay.status).toBe(503);
    // A USD request has no conversion fields.
    const usd = await post({ amount: "1", invoiceCurrency: "USD", paymentCurrency: "USDC-base", payee: PAYEE });
    const u = (await get(usd.body.requestId)).body;
    expect(u).toMatchObject({ amountInUsd: null, conversionRate: null, conversionBreakdown: null });
    expect(u).not.toHaveProperty("rateSource");
  });

  it("rejects EVM payees on Tron", async () => {
    const res = await post({ amount: "1", invoiceCurrency: "USDT-tron", paymentCurrency: "USDT-tron", payee: PAYEE });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({ field: "payee", message: "must be a Tron base58 address (T...) for network tron" });
  });
});

describe("GET /v2/request/{id}", () => {
  it("404s unknown and malformed IDs, and another account's request", async () => {
    const created = await post({ amount: "1", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base", payee: PAYEE });
    expect((await get(`01${"0".repeat(64)}`)).status).toBe(404);
    expect((await get("nope")).status).toBe(404);
    const other = await get(created.body.requestId, b.apiKey);
    expect(other.status).toBe(404);
    expect(other.body.message).toBe("Request not found");
  });
});

describe("GET /v2/request/{id}/pay and /routes without an RPC", () => {
  it("returns approve then the fee-proxy payment, with the fee", async () => {
    const created = await post({
      amount: "100",
      invoiceCurrency: "USDC-base",
      paymentCurrency: "USDC-base",
      payee: PAYEE,
      feePercentage: "1",
      feeAddress: PAYEE,
    });
    const id = created.body.requestId;
    const res = await call(payRequest, `/v2/request/${id}/pay?wallet=${PAYEE}`, {
      headers: { "x-api-key": a.apiKey },
      params: { requestId: id },
    });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({
      stepsRequired: 2,
      needsApproval: true,
      approvalTransactionIndex: 0,
      paymentTransactionIndex: 1,
      hasEnoughBalance: true,
      hasEnoughGas: true,
    });
    const [approve, pay] = res.body.transactions;
    expect(approve.to).toBe("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");
    expect(approve.data.slice(0, 10)).toBe("0x095ea7b3");
    // spender = Base ERC20FeeProxy, amount = 101 USDC (100 + 1 % fee)
    expect(approve.data).toContain("1892196e80c4c17ea5100da765ab48c1fe2fb814");
    expect(BigInt(`0x${approve.data.slice(-64)}`)).toBe(101_000_000n);
    expect(pay.to).toBe("0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814");
    expect(pay.data.slice(0, 10)).toBe("0xc219a14d");
    expect(pay.value).toEqual({ type: "BigNumber", hex: "0x0" });
    expect(pay.data).toContain(created.body.paymentReference.slice(2));

    const routes = await call(getRoutes, `/v2/request/${id}/routes?wallet=${PAYEE}`, {
      headers: { "x-api-key": a.apiKey },
      params: { requestId: id },
    });
    expect(routes.body.routes).toEqual([
      {
        id: "REQUEST_NETWORK_PAYMENT",
        fee: 0.01,
        feeBreakdown: [{ type: "platform", stage: "sending", provider: "duebill", amount: "1", amountInUSD: "1", currency: "USDC" }],
        speed: "FAST",
        chain: "BASE",
        token: "USDC",
      },
    ]);
  });

  it("validates the wallet for the request's network and refuses cross-chain for now", async () => {
    const created = await post({ amount: "1", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base", payee: PAYEE });
    const id = created.body.requestId;
    const bad = await call(payRequest, `/v2/request/${id}/pay?wallet=${TRON_PAYEE}`, {
      headers: { "x-api-key": a.apiKey },
      params: { requestId: id },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("wallet");
    const half = await call(payRequest, `/v2/request/${id}/pay?chain=BASE`, {
      headers: { "x-api-key": a.apiKey },
      params: { requestId: id },
    });
    expect(half.body.errors[0].field).toBe("token");
    const missingWallet = await call(getRoutes, `/v2/request/${id}/routes`, {
      headers: { "x-api-key": a.apiKey },
      params: { requestId: id },
    });
    expect(missingWallet.body.errors[0].field).toBe("wallet");
  });
});

describe("payment reference", () => {
  it("follows the protocol: last 8 bytes of keccak256(lower(requestId + salt + address))", () => {
    // keccak256("01abc" + "0011223344556677" + "0xabc") computed independently
    const ref = computePaymentReference("01ABC", "0011223344556677", "0xABC");
    expect(ref).toMatch(/^0x[0-9a-f]{16}$/);
    expect(ref).toBe(computePaymentReference("01abc", "0011223344556677", "0xabc"));
    expect(referenceTopic("0x0000000000000000")).toBe("0x011b4d03dd8c01f1049143cf9c4c817e4b167f1d1b83e5c6f0f10d89ba1e7bce");
  });
});
