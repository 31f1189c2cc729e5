import { beforeAll, describe, expect, it } from "vitest";
import { POST as preview } from "@/app/v2/secure-payments/fees/preview/route";
import { setFeeConfig } from "@/lib/fees/fee-config";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let a: Awaited<ReturnType<typeof makeIntegrator>>;
let b: Awaited<ReturnType<typeof makeIntegrator>>;
const FEE_ADDRESS = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

beforeAll(async () => {
  await resetDb();
  a = await makeIntegrator();
  b = await makeIntegrator();
  await setFeeConfig({
    accountId: a.account.id,
    flow: "get_paid",
    percentageBps: 250,
    capUsd: "2",
    feeBearer: "payee",
    evmAddress: FEE_ADDRESS,
    label: "Platform",
  });
});

const ask = (who: typeof a, json: Record<string, unknown>) =>
  call(preview, "/v2/secure-payments/fees/preview", { method: "POST", headers: { "x-api-key": who.apiKey }, json });

describe("POST /v2/secure-payments/fees/preview", () => {
  it("previews the account's fee plan: 2.5 % capped at 2 USD, payee-borne", async () => {
    const res = await ask(a, { amount: "60", currency: "USDC", flow: "get_paid" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      version: 1,
      flow: "get_paid",
      defaultFeeBearer: "payee",
      grossAmountUsd: "60.00",
      netRecipientAmountUsd: "58.50",
      payerTotalAmountUsd: "60.00",
      totalFeesUsd: "1.50",
      payeeBorneFeesUsd: "1.50",
      payerBorneFeesUsd: "0.00",
    });
    expect(res.body.fees[0]).toMatchObject({ label: "Platform", percentageBps: 250, capUsd: "2.00", calculatedAmountUsd: "1.50" });
    const capped = await ask(a, { amount: "1000", currency: "USDC-base", flow: "get_paid", defaultFeeBearer: "payer" });
    expect(capped.body).toMatchObject({ totalFeesUsd: "2.00", defaultFeeBearer: "payer", payeeBorneFeesUsd: "2.00" });
  });

  it("without a fee configuration: a plan without fees (another account's configuration does not apply)", async () => {
    const res = await ask(b, { amount: "12.5", currency: "USDT", flow: "pay" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ defaultFeeBearer: "payer", grossAmountUsd: "12.50", totalFeesUsd: "0.00", fees: [] });
  });

  it("bad input is a 400 naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: "10", currency: "NOPE", flow: "pay" }, "currency"],
      [{ amount: "-1", currency: "USDC", flow: "pay" }, "amount"],
      [{ amount: "0", currency: "USDC", flow: "pay" }, "amount"],
      [{ amount: "10", currency: "USDC", flow: "sideways" }, "flow"],
      [{ amount: "10", currency: "USDC" }, "flow"],
    ];
    for (const [json, field] of cases) {
      const res = await ask(a, json);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.errors?.[0]?.field, JSON.stringify(res.body)).toBe(field);
    }
  });
});
