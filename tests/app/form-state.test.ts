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
