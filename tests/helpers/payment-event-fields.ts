import { expect } from "vitest";

/**
 * The interface's payment event body (docs/spec/service-interface.md, "Events": "Payment event body
 * (payment.confirmed; test deliveries use the same shape)", `event`: payment.confirmed or
 * payment.failed), written out here from that table, not taken from the code's builders.
 */
export const INTERFACE_PAYMENT_EVENT_FIELDS = {
  event: "string",
  requestId: "string",
  requestID: "string",
  paymentReference: "string",
  explorer: "uri",
  amount: "decimal",
  totalAmountPaid: "decimal",
  expectedAmount: "decimal",
  timestamp: "date-time",
  txHash: "string",
  network: "string",
  currency: "string",
  paymentCurrency: "string",
  isCryptoToFiat: "boolean",
  subStatus: "string",
  paymentProcessor: "string",
  fees: "fees",
} as const;

const DECIMAL = /^\d+(\.\d+)?$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Every field of the interface's list is there with its type; returns the problems (empty when none). */
export function paymentEventProblems(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const [field, type] of Object.entries(INTERFACE_PAYMENT_EVENT_FIELDS)) {
    const v = body[field];
    if (!(field in body)) {
      problems.push(`${field}: missing`);
      continue;
    }
    const bad = (why: string) => problems.push(`${field}: ${why} (${JSON.stringify(v)})`);
    switch (type) {
      case "string":
        if (typeof v !== "string") bad("not a string");
        break;
      case "uri":
        if (typeof v !== "string" || !URL.canParse(v)) bad("not a URI");
        break;
      case "decimal":
        if (typeof v !== "string" || !DECIMAL.test(v)) bad("not a decimal string");
        break;
      case "date-time":
        if (typeof v !== "string" || !DATE_TIME.test(v) || Number.isNaN(Date.parse(v))) bad("not a date-time");
        break;
      case "boolean":
        if (typeof v !== "boolean") bad("not a boolean");
        break;
      case "fees":
        if (
          !Array.isArray(v) ||
          v.some((f) => typeof f?.type !== "string" || typeof f?.amount !== "string" || typeof f?.currency !== "string")
        )
          bad("not an array of {type, amount, currency} strings");
        break;
    }
  }
  if (body.requestId !== body.requestID) problems.push("requestId and requestID differ");
  return problems;
}

export function expectInterfacePaymentEvent(body: Record<string, unknown>, event: "payment.confirmed" | "payment.failed") {
  expect(paymentEventProblems(body), JSON.stringify(body)).toEqual([]);
  expect(body.event).toBe(event);
}
