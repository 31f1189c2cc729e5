/**
 * POST /v2/secure-payments bounds its amounts as the dashboard's link form does (issue 27): at most
 * 18 digits before the point; longer, empty or not a decimal is a 400 naming the field, before any
 * destination or chain is looked at. The form checks the same schema (tests/app/form-check.test.ts).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { POST as createLink } from "@/app/v2/secure-payments/route";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

let apiKey = "";
beforeAll(async () => {
  await resetDb();
  apiKey = (await makeIntegrator()).apiKey;
});

const post = (json: unknown) => call(createLink, "/v2/secure-payments", { method: "POST", headers: { "x-api-key": apiKey }, json });

describe("POST /v2/secure-payments: amounts bounded, the field named", () => {
  it.each([
    ["1".repeat(44), "at most 18 digits before the point and 18 after"],
    [`${"9".repeat(19)}.5`, "at most 18 digits before the point and 18 after"],
    ["12,5", 'must be a positive decimal string such as "12.50"'],
    ["0", "must be greater than 0"],
  ])("amount %s → 400: %s", async (amount, message) => {
    const res = await post({ requests: [{ amount }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_failed", errors: [{ field: "requests.0.amount", message }] });
  });

  it("an empty amount is named too; a line item's unitAmount has the same bound", async () => {
    const empty = await post({ requests: [{ amount: "" }] });
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0].field).toBe("requests.0.amount");
    const item = await post({ requests: [{ amount: "5" }], lineItems: [{ description: "Mug", unitAmount: "1".repeat(30) }] });
    expect(item.status).toBe(400);
    expect(item.body.errors).toEqual([{ field: "lineItems.0.unitAmount", message: "at most 18 digits before the point and 18 after" }]);
  });
});
