import { z } from "zod";
import { errorResponses } from "@/lib/http/openapi/common";
import { defineOperation } from "@/lib/http/operation";

const tags = ["Payee destinations"];

export const destinationSchema = z
  .object({
    destinationId: z.string().optional(),
    payeeAddress: z.string().meta({ description: "ERC-7828 interop name, e.g. 0xFe89…@eip155:1#80B12379" }),
    tokenAddress: z.string(),
    walletAddress: z.string(),
    network: z.string(),
    isMasked: z.boolean().optional(),
  })
  .meta({ id: "Destination" });

const stateful = destinationSchema.extend({ currency: z.string(), active: z.boolean(), createdAt: z.string() });
const idParams = z.object({ destinationId: z.string().max(200) });

export const createDestinationOp = defineOperation({
  method: "POST",
  path: "/v2/payee-destination",
  operationId: "createPayeeDestination",
  summary: "Register the account's receiving destination (replaces the active one)",
  tags,
  auth: ["session"],
  body: z.strictObject({
    currency: z.string().max(96).meta({ description: "USDC or USDT currency ID, e.g. USDC-base or USDT-tron" }),
    walletAddress: z.string().max(100).optional().meta({ description: "Defaults to the signed-in wallet" }),
  }),
  responses: { 201: { description: "Active destination", schema: stateful }, ...errorResponses(400, 401, 403, 409, 429) },
});

export const getActiveDestinationOp = defineOperation({
  method: "GET",
  path: "/v2/payee-destination",
  operationId: "getPayeeDestination",
  summary: "The account's active destination (null when none)",
  tags,
  auth: ["session"],
  responses: { 200: { description: "Active destination", schema: z.object({ destination: stateful.nullable() }) }, ...errorResponses(401, 429) },
});

export const readDestinationOp = defineOperation({
  method: "GET",
  path: "/v2/payee-destination/{destinationId}",
  operationId: "readPayeeDestination",
  summary: "A destination of the account",
  tags,
  auth: ["session"],
  params: idParams,
  responses: { 200: { description: "Destination", schema: stateful }, ...errorResponses(401, 404, 429) },
});

export const deactivateDestinationOp = defineOperation({
  method: "DELETE",
  path: "/v2/payee-destination/{destinationId}",
  operationId: "deactivatePayeeDestination",
  summary: "Deactivate a destination (client IDs bound to it are unbound)",
  tags,
  auth: ["session"],
  params: idParams,
  responses: { 200: { description: "Deactivated", schema: stateful }, ...errorResponses(401, 403, 404, 429) },
});
