import { describe, expect, it } from "vitest";
import type { AppError } from "@/lib/errors";
import { FEE_FORM_FIELDS, feeFormBody, feeFormSchema } from "@/lib/forms/fee-form";
import { checkForm, issueWords, maxLengthOf, refusedState } from "@/lib/forms/form-state";
import {
  API_KEY_FORM_FIELDS,
  CLIENT_ID_FORM_FIELDS,
  clientIdFormBody,
  clientIdFormSchema,
  credentialNameSchema,
} from "@/lib/forms/key-forms";
import { LINK_FORM_FIELDS, linkFormBody, linkFormMaxLengths, linkFormSchema } from "@/lib/forms/link-form";
import { SIGN_IN_FORM_FIELDS, SIGN_IN_MAX_LENGTHS, signInFormSchema } from "@/lib/forms/sign-in-form";
import { WEBHOOK_FORM_FIELDS, webhookFormBody, webhookFormSchema } from "@/lib/forms/webhook-form";
import { parseWith } from "@/lib/http/parse";
import { createSecurePaymentBodySchema } from "@/lib/operations/secure-payments-schemas";

const link = (v: Record<string, string>, decimals = 6) => checkForm(linkFormSchema(decimals), linkFormBody(v), LINK_FORM_FIELDS);
const errorsOf = (r: ReturnType<typeof checkForm>) => (r.ok ? {} : r.fieldErrors);

describe("the link form: the API's schema, the currency's decimals, words", () => {
  it("an empty amount is required, not a format error", () => {
    expect(errorsOf(link({ amount: "" }))).toEqual({ amount: "Amount is required" });
    expect(errorsOf(link({ amount: "   " }))).toEqual({ amount: "Amount is required" });
  });

  it("a bad amount says what an amount is, next to the field", () => {
    expect(errorsOf(link({ amount: "12,5" }))).toEqual({ amount: 'Amount must be a positive decimal string such as "12.50"' });
    expect(errorsOf(link({ amount: "0.00" }))).toEqual({ amount: "Amount must be greater than 0" });
  });

  it("bounds the digits: 18 before the point and the currency's decimals after", () => {
    expect(errorsOf(link({ amount: "1".repeat(44) }))).toEqual({ amount: "Amount: at most 18 digits before the point and 6 after" });
    expect(errorsOf(link({ amount: "1.1234567" }))).toEqual({ amount: "Amount: at most 18 digits before the point and 6 after" });
    expect(link({ amount: `${"9".repeat(18)}.123456` }).ok).toBe(true);
    expect(errorsOf(link({ amount: "1.5" }, 0))).toEqual({ amount: "Amount: at most 18 digits before the point and 0 after" });
    expect(linkFormMaxLengths(6)).toEqual({ amount: 25, reference: 255, description: 500, redirectUrl: 2048 });
  });

  it("each optional text is bounded as the API bounds it, and several fields are reported at once", () => {
    const r = link({ amount: "5", reference: "r".repeat(256), redirectUrl: "javascript:alert(1)" });
    expect(errorsOf(r)).toEqual({
      reference: "Reference: at most 255 characters",
      redirectUrl: "Redirect after payment must be an http(s) URL",
    });
  });

  it("a valid form is the API's body", () => {
    const r = link({ amount: " 12.50 ", reference: "INV-1", description: "", redirectUrl: "" });
    expect(r).toEqual({ ok: true, data: { requests: [{ amount: "12.50" }], reference: "INV-1" } });
  });
});

describe("the API bounds what the form bounds (POST /v2/secure-payments' schema)", () => {
  const refused = (amount: string) => {
    try {
      parseWith(createSecurePaymentBodySchema, { requests: [{ amount }] });
      return null;
    } catch (err) {
      return (err as AppError).errors;
    }
  };
  it("a 44-digit amount is a 400 naming requests.0.amount", () => {
    expect(refused("1".repeat(44))).toEqual([{ field: "requests.0.amount", message: "at most 18 digits before the point and 18 after" }]);
    expect(refused("")?.[0]?.field).toBe("requests.0.amount");
    expect(refused("1e5")).toEqual([{ field: "requests.0.amount", message: 'must be a positive decimal string such as "12.50"' }]);
    expect(refused("12.50")).toBeNull();
  });
});

describe("the key, client ID, webhook, fee and sign-in forms", () => {
  it("a credential name is at most 100 characters", () => {
    expect(errorsOf(checkForm(credentialNameSchema, { name: "k".repeat(300) }, API_KEY_FORM_FIELDS))).toEqual({
      name: "Name: at most 100 characters",
    });
    expect(checkForm(credentialNameSchema, { name: "prod" }, API_KEY_FORM_FIELDS).ok).toBe(true);
  });

  it("a client ID needs a label; origins are bounded in number", () => {
    const check = (v: Record<string, string>) => errorsOf(checkForm(clientIdFormSchema, clientIdFormBody(v), CLIENT_ID_FORM_FIELDS));
    expect(check({ label: "", allowedDomains: "" })).toEqual({ label: "Label is required" });
    expect(check({ label: "x".repeat(101) })).toEqual({ label: "Label: at most 100 characters" });
    const eleven = Array.from({ length: 11 }, (_, i) => `https://s${i}.example`).join(", ");
    expect(check({ label: "Shop", allowedDomains: eleven })).toEqual({ allowedDomains: "Allowed origins: at most 10 entries" });
    expect(check({ label: "Shop", allowedDomains: "https://a.example, https://b.example" })).toEqual({});
  });

  it("a webhook needs a URL and a client ID", () => {
    const check = (v: Record<string, string>) => errorsOf(checkForm(webhookFormSchema, webhookFormBody(v), WEBHOOK_FORM_FIELDS));
    expect(check({ url: "", clientId: "" })).toEqual({ url: "Endpoint URL is required", clientId: "Client ID is required" });
    expect(check({ url: `https://a.example/${"p".repeat(2040)}`, clientId: "cid_1" })).toEqual({
      url: "Endpoint URL: at most 2048 characters",
    });
  });

  it("the fee form: basis points as digits in range, an address required, the label bounded", () => {
    const check = (v: Record<string, string>) => errorsOf(checkForm(feeFormSchema, feeFormBody(v), FEE_FORM_FIELDS));
    const evm = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    expect(check({ bps: "", bearer: "payer", evm })).toEqual({ bps: "Fee (basis points) is required" });
    expect(check({ bps: "2.5", bearer: "payer", evm })).toEqual({ bps: "Fee (basis points) must be an integer from 0 to 10000" });
    expect(check({ bps: "10001", bearer: "payer", evm })).toEqual({ bps: "Fee (basis points) must be an integer from 0 to 10000" });
    expect(check({ bps: "250", bearer: "payer" })).toEqual({
      evm: "Fee address (EVM) is required: a fee needs a receiving address (EVM and/or Tron)",
    });
    expect(check({ bps: "250", bearer: "payer", evm: "0x123" })).toEqual({ evm: "Fee address (EVM) must be a checksummed 0x address" });
    expect(check({ bps: "250", bearer: "payer", evm, cap: "1".repeat(13) })).toMatchObject({
      cap: expect.stringMatching(/^Cap \(USD\) must be a USD amount/),
    });
    expect(check({ bps: "250", bearer: "payer", evm, label: "l".repeat(61) })).toEqual({
      label: "Label shown to payers must be at most 60 characters",
    });
    expect(check({ bps: "250", bearer: "payer", evm })).toEqual({});
  });

  it("sign-in: the email and password in words, bounded as /v1/auth/login bounds them", () => {
    const check = (v: Record<string, string>) => errorsOf(checkForm(signInFormSchema, v, SIGN_IN_FORM_FIELDS));
    expect(check({ email: "", password: "" })).toEqual({ email: "Email is required", password: "Password is required" });
    expect(check({ email: "not-an-email", password: "short" })).toEqual({
      email: "Email must be an email address",
      password: "Password must be 8 to 100 characters",
    });
    expect(SIGN_IN_MAX_LENGTHS).toEqual({ email: 255, password: 100 });
  });
});

describe("the helpers", () => {
  it("maxLengthOf reads through optional and refinements; refusedState leads with the first field", () => {
    expect(maxLengthOf(createSecurePaymentBodySchema.shape.redirectUrl)).toBe(2048);
    expect(refusedState({ amount: "Amount is required", reference: "Reference: x" }, { amount: "" })).toEqual({
      error: "Amount is required",
      field: "amount",
      fieldErrors: { amount: "Amount is required", reference: "Reference: x" },
      values: { amount: "" },
    });
  });

  it("issueWords keeps a schema's own message and words zod's", () => {
    const r = credentialNameSchema.safeParse({ name: "x".repeat(101) });
    expect(issueWords(r.error!.issues[0]!, "x".repeat(101))).toBe("at most 100 characters");
  });
});
