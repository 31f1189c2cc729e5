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
  description:
    "The wallet's control must be proven: a wallet session registers its own address; any other EVM wallet signs the EIP-712 data of " +
    "GET /v2/payee-destination/signing-data and sends `nonce` and `signature`. Without proof: 403.",
  tags,
  auth: ["session"],
  body: z.strictObject({
    currency: z.string().max(96).meta({ description: "USDC or USDT currency ID, e.g. USDC-base or USDT-tron" }),
    walletAddress: z.string().max(100).optional().meta({ description: "Defaults to the signed-in wallet" }),
    nonce: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "From GET /v2/payee-destination/signing-data (needed unless signed in with this wallet)" }),
    signature: z.string().max(200).optional().meta({ description: "The wallet's EIP-712 signature of that signing data" }),
  }),
  responses: { 201: { description: "Active destination", schema: stateful }, ...errorResponses(400, 401, 403, 409, 429) },
});

export const destinationSigningDataOp = defineOperation({
  method: "GET",
  path: "/v2/payee-destination/signing-data",
  operationId: "getPayeeDestinationSigningData",
  summary: "EIP-712 data a wallet signs to prove control before it is registered or deactivated",
  description:
    "Single-use nonce, valid 5 minutes, bound to the signed-in account. EVM wallets only: a Tron wallet signs in with the wallet instead.",
  tags,
  auth: ["session"],
  query: z.object({
    walletAddress: z.string().min(1).max(100),
    action: z.enum(["add", "deactivate"]),
    tokenAddress: z.string().min(1).max(100),
    chainId: z.coerce
      .number()
      .int()
      .positive()
      .max(2 ** 53 - 1),
  }),
  responses: {
    200: {
      description: "Typed data and nonce",
      schema: z.object({
        domain: z.object({ name: z.string(), version: z.string(), chainId: z.number() }),
        types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
        primaryType: z.string(),
        message: z.record(z.string(), z.string()),
        nonce: z.string(),
        expiresAt: z.string(),
      }),
    },
    ...errorResponses(400, 401, 429),
  },
});

export const getActiveDestinationOp = defineOperation({
  method: "GET",
  path: "/v2/payee-destination",
  operationId: "getPayeeDestination",
  summary: "The account's active destination (null when none)",
  tags,
  auth: ["session"],
  responses: {
    200: { description: "Active destination", schema: z.object({ destination: stateful.nullable() }) },
    ...errorResponses(401, 429),
  },
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
