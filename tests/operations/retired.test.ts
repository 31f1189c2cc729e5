import { describe, expect, it } from "vitest";
import { GET as getDetails, POST as postDetails } from "@/app/v2/payer/[clientUserId]/payment-details/route";
import { GET as getPayer, PATCH as patchPayer } from "@/app/v2/payer/[clientUserId]/route";
import { POST as createPayer } from "@/app/v2/payer/route";
import { POST as sendIntent } from "@/app/v2/request/payment-intents/[paymentIntentId]/route";
import { PAYER_OUT_OF_SCOPE, PAYMENT_INTENTS_REMOVED } from "@/lib/operations/retired";
import { call } from "@/tests/helpers/http";

/** Reference operations Duebill refuses with a reason (docs/api/compatibility.md), with or without credentials and bodies. */
describe("retired and out-of-scope reference operations", () => {
  it("POST /v2/request/payment-intents/{id} is 410 Gone and says what replaced it", async () => {
    const res = await call(sendIntent, "/v2/request/payment-intents/pi_1", {
      method: "POST",
      headers: { "x-api-key": "anything" },
      json: { signedPaymentIntent: { signature: "0x00" } },
      params: { paymentIntentId: "pi_1" },
    });
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ statusCode: 410, message: PAYMENT_INTENTS_REMOVED });
    expect(res.body.message).toContain("GET /v2/request/{requestId}/pay");
  });

  it("every /v2/payer operation is 404 and names the off-ramp", async () => {
    const cases = [
      call(createPayer, "/v2/payer", { method: "POST", json: { clientUserId: "u1", email: "a@example.com" } }),
      call(getPayer, "/v2/payer/u1", { params: { clientUserId: "u1" } }),
      call(patchPayer, "/v2/payer/u1", { method: "PATCH", json: { agreementCompleted: true }, params: { clientUserId: "u1" } }),
      call(getDetails, "/v2/payer/u1/payment-details", { params: { clientUserId: "u1" } }),
      call(postDetails, "/v2/payer/u1/payment-details", { method: "POST", json: { bankName: "x" }, params: { clientUserId: "u1" } }),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, message: PAYER_OUT_OF_SCOPE });
    }
  });
});
