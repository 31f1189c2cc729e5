import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import { listRequestsQuerySchema } from "@/lib/operations/request-list-schemas";
import {
  createRequestBodySchema,
  createRequestResponseSchema,
  payQuerySchema,
  payResponseSchema,
  requestIdParamsSchema,
  requestStatusSchema,
  routesQuerySchema,
  routesResponseSchema,
} from "@/lib/operations/requests-schemas";

const auth = ["apiKey", "clientId"] as const;
const tags = ["Requests"];

export const createRequestOp = defineOperation({
  method: "POST",
  path: "/v2/request",
  operationId: "createRequest",
  summary: "Create a payment request",
  description:
    "Stores a request to be paid to `payee` in `paymentCurrency`. `invoiceCurrency` is the payment currency itself or USD (paid 1:1 in a dollar stablecoin). Returns the request ID and the on-chain payment reference.",
  tags,
  auth,
  body: createRequestBodySchema,
  idempotent: true,
  responses: { 201: { description: "Created", schema: createRequestResponseSchema }, ...errorResponses(400, 401, 403, 429) },
});

export const listRequestsOp = defineOperation({
  method: "GET",
  path: "/v2/request",
  operationId: "listRequests",
  summary: "List the account's requests",
  description:
    "Newest first, each as GET /v2/request/{requestId} shows it (without a chain read: a conversion request's `currentMarketRate` is null here). " +
    "`walletAddress` (the reference's filter): requests whose payee or payer is that wallet (EVM in any case, or Tron). Duebill extensions, ANDed: " +
    "`status`, `reference` (your merchant reference), `fromDate`/`toDate` (creation time, ISO 8601 UTC, inclusive). `limit` (1–100, default 20) and `offset`, " +
    "with `pagination` as GET /v2/payments. Payouts are requests too and are listed. A server operation: browser client IDs get 403.",
  tags,
  auth: ["apiKey", "clientId", "session"],
  browser: false,
  query: listRequestsQuerySchema,
  responses: {
    200: {
      description: "Requests and pagination",
      schema: z
        .object({
          requests: z.array(requestStatusSchema),
          pagination: z.object({ total: z.number(), limit: z.number(), offset: z.number(), hasMore: z.boolean() }),
        })
        .meta({ id: "RequestList" }),
    },
    ...errorResponses(400, 401, 403, 429),
  },
});

export const getRequestOp = defineOperation({
  method: "GET",
  path: "/v2/request/{requestId}",
  operationId: "getRequest",
  summary: "Request status and payments",
  tags,
  auth,
  params: requestIdParamsSchema,
  responses: { 200: { description: "Request", schema: requestStatusSchema }, ...errorResponses(401, 403, 404, 429) },
});

export const getRequestRoutesOp = defineOperation({
  method: "GET",
  path: "/v2/request/{requestId}/routes",
  operationId: "getRequestRoutes",
  summary: "Payment routes for a payer",
  tags,
  auth,
  params: requestIdParamsSchema,
  query: routesQuerySchema,
  responses: { 200: { description: "Routes, best first", schema: routesResponseSchema }, ...errorResponses(400, 401, 403, 404, 409, 429) },
});

export const payRequestOp = defineOperation({
  method: "GET",
  path: "/v2/request/{requestId}/pay",
  operationId: "payRequest",
  summary: "Transactions that pay a request",
  description:
    "Approval transactions (only when the payer's allowance is short; approve(0) first for USDT-style tokens) followed by the ERC20FeeProxy payment. Send them in order from `wallet`. " +
    "With `amount`, the transactions pay that part of what is owed (and the fee's share of it): the request stays `partially_paid` until the rest is paid.",
  tags,
  auth,
  params: requestIdParamsSchema,
  query: payQuerySchema.extend(routesQuerySchema.omit({ wallet: true }).shape),
  responses: { 200: { description: "Calldata", schema: payResponseSchema }, ...errorResponses(400, 401, 403, 404, 409, 429) },
});
