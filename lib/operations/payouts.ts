import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import {
  batchPayoutResponseSchema,
  createBatchPayoutBodySchema,
  createPayoutBodySchema,
  payoutResponseSchema,
} from "@/lib/operations/payouts-schemas";
import { recurringCreatedSchema } from "@/lib/operations/recurring-schemas";

export const createPayoutOp = defineOperation({
  method: "POST",
  path: "/v2/payouts",
  operationId: "createPayout",
  summary: "Create a payout (one-off or recurring) and get its transactions",
  description:
    "Creates a request to `payee` and returns the transactions the payer's wallet sends: approvals when needed, then the payment.\n\n" +
    "With `recurrence {startDate, frequency, totalPayments (2–256), payer}` it creates a pending recurring schedule instead (EVM networks with a recurring contract): the response carries `recurringPaymentPermit {domain, types, values}` for the payer to sign with EIP-712, the allowance approval for the whole schedule when the payer's allowance is short, and every due date. Activate it with `POST /v2/payouts/recurring/{id}`.",
  tags: ["Payouts"],
  auth: ["apiKey", "clientId"],
  body: createPayoutBodySchema,
  idempotent: true,
  responses: {
    201: {
      description: "Payout created (or, with `recurrence`, a pending recurring schedule)",
      schema: z.union([payoutResponseSchema, recurringCreatedSchema]),
    },
    ...errorResponses(400, 401, 403, 429),
  },
});

export const createBatchPayoutOp = defineOperation({
  method: "POST",
  path: "/v2/payouts/batch",
  operationId: "createBatchPayout",
  summary: "Pay several payees in one transaction (EVM only)",
  description:
    'All items must be on one EVM network. Tron batches are refused with 400 "Batch payments are not supported for TRON networks. Please submit individual payment requests."',
  tags: ["Payouts"],
  auth: ["apiKey", "clientId"],
  body: createBatchPayoutBodySchema,
  idempotent: true,
  responses: { 201: { description: "Batch calldata", schema: batchPayoutResponseSchema }, ...errorResponses(400, 401, 403, 404, 429) },
});
