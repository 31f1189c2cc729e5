import { describe, expect, it } from "vitest";
import { AppError, invalidField, notFound, toFormState } from "@/lib/errors";

describe("toFormState: a server action's answer for an error", () => {
  it("names the field at fault, in the API's words", () => {
    expect(toFormState(invalidField("amount", "must be greater than 0"))).toEqual({
      error: "amount: must be greater than 0",
      field: "amount",
    });
  });

  it("uses the first field error when there are several", () => {
    const err = new AppError("validation_failed", "Validation failed", {
      errors: [
        { field: "bps", message: "must be an integer" },
        { field: "cap", message: "must be a USD amount" },
      ],
    });
    expect(toFormState(err)).toEqual({ error: "bps: must be an integer", field: "bps" });
  });

  it("gives the message of an error that names no field", () => {
    expect(toFormState(notFound("API key not found"))).toEqual({ error: "API key not found" });
    expect(toFormState(new AppError("conflict", "The recurring payout changed meanwhile; read it again"))).toEqual({
      error: "The recurring payout changed meanwhile; read it again",
    });
  });

  it("throws anything but an AppError again (not the user's to fix: the error boundary and the log get it)", () => {
    const bug = new TypeError("cannot read properties of undefined");
    expect(() => toFormState(bug)).toThrow(bug);
    expect(() => toFormState("a string")).toThrow();
  });
});

describe("toFormState with a form's fields: the field in words, never an internal path", () => {
  const fields = { amount: { label: "Amount", path: "requests.0.amount" }, reference: { label: "Reference" } };

  it("names the form's field for the API's path, as a sentence", () => {
    expect(toFormState(invalidField("requests.0.amount", "has more than 6 decimal places"), fields)).toEqual({
      error: "Amount has more than 6 decimal places",
      field: "amount",
      fieldErrors: { amount: "Amount has more than 6 decimal places" },
    });
    expect(toFormState(invalidField("reference", "at most 255 characters"), fields).error).toBe("Reference: at most 255 characters");
  });

  it("nested paths under a field belong to it", () => {
    const s = toFormState(invalidField("allowedDomains.2", "must be an https origin"), { allowedDomains: { label: "Allowed origins" } });
    expect(s).toMatchObject({ field: "allowedDomains", error: "Allowed origins must be an https origin" });
  });

  it("an error on no field of the form is its message alone", () => {
    expect(toFormState(invalidField("destinationId", "no payee destination: register one"), fields)).toEqual({
      error: "No payee destination: register one",
    });
    expect(toFormState(notFound("Client ID not found"), fields)).toEqual({ error: "Client ID not found" });
  });
});
