import { beforeEach, describe, expect, it } from "vitest";
import { POST as createBatch } from "@/app/v2/payouts/batch/route";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const PAYEE = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const OTHER = "0x2546BcD3c84621e976D8185a91A922aE77ECEc30";
const TRON_PAYEE = "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW";
const TRON_FEE = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
});

const payout = (json: unknown) => call(createPayout, "/v2/payouts", { method: "POST", headers: { "x-api-key": a.apiKey }, json });
const batch = (json: unknown) => call(createBatch, "/v2/payouts/batch", { method: "POST", headers: { "x-api-key": a.apiKey }, json });

const word = (hex: string) => hex.replace(/^0x/, "").padStart(64, "0");

describe("POST /v2/payouts", () => {
  it("answers the interface's payout response", async () => {
    const res = await payout({ payee: PAYEE, amount: "25.5", invoiceCurrency: "USD", paymentCurrency: "USDT-mainnet" });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["metadata", "paymentReference", "requestId", "transactions"]);
    expect(res.body.transactions).toHaveLength(2);
    expect(res.body.metadata.paymentTransactionIndex).toBe(1);
  });

  it("encodes Tron calldata: base58 `to`, 20-byte hex addresses inside, value 0", async () => {
    const res = await payout({
      payee: TRON_PAYEE,
      amount: "10",
      invoiceCurrency: "USDT-tron",
      paymentCurrency: "USDT-tron",
      feePercentage: "1",
      feeAddress: TRON_FEE,
    });
    expect(res.status).toBe(201);
    const [approve, pay] = res.body.transactions;
    const tokenHex = "a614f803b6fd780986a42c78ec9c7f77e6ded13c"; // TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t
    expect(approve.to).toBe("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
    expect(approve.value).toEqual({ type: "BigNumber", hex: "0x0" });
    expect(approve.data.slice(0, 10)).toBe("0x095ea7b3");
    expect(BigInt(`0x${approve.data.slice(74)}`)).toBe(10_100_000n);
    expect(pay.to).toBe("TCUDPYnS9dH3WvFEaE7wN7vnDa51J4R4fd");
    const payeeHex = "5a523b449890854c8fc460ab602df9f31fe4293f"; // TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW
    const ref = res.body.paymentReference.slice(2);
    const expected =
      "0xc219a14d" +
      word(tokenHex) +
      word(payeeHex) +
      word((10_000_000).toString(16)) +
      word("c0") + // offset of the bytes argument: 6 words
      word((100_000).toString(16)) +
      word(tokenHex) + // fee address TR7N... is the token contract's address here
      word("8") +
      ref.padEnd(64, "0");
    expect(pay.data).toBe(expected);
    // spender of the approval: the Tron ERC20FeeProxy TCUDPYnS9dH3WvFEaE7wN7vnDa51J4R4fd
    expect(approve.data.slice(10, 74)).toBe(word("1b6ca35d39842cf8fbe49000653a1505412da659"));
  });

  it.each([
    [{ payee: "0xnothex" }, "payee"],
    [{ payee: TRON_PAYEE }, "payee"],
    [{ amount: "0.0000001" }, "amount"],
    [{ amount: "0" }, "amount"],
    [{ paymentCurrency: "USDC-tron", invoiceCurrency: "USDC-tron" }, "payee"],
    [{ payerWallet: "0x12" }, "payerWallet"],
    // Recurring payouts: base has no recurring contract configured here (the anvil suite has one).
    [{ recurrence: { startDate: "2030-01-01", frequency: "DAILY", totalPayments: 3, payer: OTHER } }, "paymentCurrency"],
    [{ recurrence: { startDate: "2030-01-01", frequency: "DAILY", totalPayments: 1, payer: OTHER } }, "recurrence.totalPayments"],
    [{ recurrence: { startDate: "2030-01-01", frequency: "DAILY", totalPayments: 257, payer: OTHER } }, "recurrence.totalPayments"],
    [{ recurrence: { startDate: "2020-01-01", frequency: "DAILY", totalPayments: 3, payer: OTHER } }, "recurrence.startDate"],
    [{ recurrence: { startDate: "next tuesday", frequency: "DAILY", totalPayments: 3, payer: OTHER } }, "recurrence.startDate"],
    [{ recurrence: { startDate: "2030-01-01", frequency: "HOURLY", totalPayments: 3, payer: OTHER } }, "recurrence.frequency"],
    [
      {
        paymentCurrency: "USDT-tron",
        invoiceCurrency: "USDT-tron",
        payee: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
        recurrence: { startDate: "2030-01-01", frequency: "DAILY", totalPayments: 3, payer: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE" },
      },
      "paymentCurrency",
    ],
    [{ invoiceCurrency: "FAU-sepolia" }, "paymentCurrency"],
  ])("rejects %j naming %s", async (patch, field) => {
    const res = await payout({ payee: PAYEE, amount: "1", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base", ...patch });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe(field);
  });

  it("needs credentials", async () => {
    const res = await call(createPayout, "/v2/payouts", { method: "POST", json: { payee: PAYEE } });
    expect(res.status).toBe(401);
  });
});

describe("POST /v2/payouts/batch", () => {
  const item = (patch: Record<string, unknown> = {}) => ({
    payee: PAYEE,
    amount: "2",
    invoiceCurrency: "USDC-base",
    paymentCurrency: "USDC-base",
    ...patch,
  });

  it("builds approvals per token and one batchPayments call", async () => {
    const res = await batch({
      requests: [item(), item({ invoiceCurrency: "USDT-base", paymentCurrency: "USDT-base", amount: "3" })],
      payer: PAYEE,
    });
    expect(res.status).toBe(201);
    expect(res.body.requestIds).toHaveLength(2);
    expect(res.body.ERC20ApprovalTransactions).toHaveLength(2);
    // The reference's clients validate approvals' value as the number 0.
    for (const tx of res.body.ERC20ApprovalTransactions) expect(tx.value).toBe(0);
    expect(res.body.ERC20BatchPaymentTransaction.to).toBe("0x1aF3f22685AcdDc788B3730ed415912d8f654420");
    expect(res.body.ERC20BatchPaymentTransaction.data.slice(0, 10)).toBe("0x92cddb91");
    expect(res.body.batchPaymentTransaction).toEqual(res.body.ERC20BatchPaymentTransaction);
  });

  it("refuses any Tron payee with the interface's exact message", async () => {
    const res = await batch({
      requests: [item(), item({ payee: TRON_PAYEE, invoiceCurrency: "USDT-tron", paymentCurrency: "USDT-tron" })],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Batch payments are not supported for TRON networks. Please submit individual payment requests.");
  });

  it("refuses mixed networks, naming the item", async () => {
    const res = await batch({ requests: [item(), item({ invoiceCurrency: "USDC-matic", paymentCurrency: "USDC-matic" })] });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("requests.1.paymentCurrency");
    expect(res.body.message).toBe("All requests must be on the same network"); // the reference's words
  });

  it("names the bad field of an item", async () => {
    const res = await batch({ requests: [item(), item({ amount: "-2" })] });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe("requests.1.amount");
  });

  it("requires exactly one of requests and requestIds", async () => {
    expect((await batch({})).status).toBe(400);
    expect((await batch({ requests: [item()], requestIds: ["01"] })).status).toBe(400);
  });

  it("pays existing requests by ID, and 404s another account's", async () => {
    const one = await payout(item());
    const res = await batch({ requestIds: [one.body.requestId] });
    expect(res.status).toBe(201);
    expect(res.body.requestIds).toEqual([one.body.requestId]);
    const other = await makeIntegrator();
    const foreign = await call(createBatch, "/v2/payouts/batch", {
      method: "POST",
      headers: { "x-api-key": other.apiKey },
      json: { requestIds: [one.body.requestId] },
    });
    expect(foreign.status).toBe(404);
  });
});
