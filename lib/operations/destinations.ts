import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";

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

/**
 * Every payee-destination operation accepts a session or, as the reference, `x-client-id` (with
 * `Origin` for a browser client ID). A client ID has no wallet session: the wallet proves control
 * with the EIP-712 signature of the signing data, and the account is the client ID's.
 */
const auth = ["clientId", "session"] as const;
const CREDENTIALS = "Credentials: a session, or `x-client-id` (+ `Origin` for a browser client ID) of the account, as the reference. ";

const nonce = z.string().min(1).max(100).meta({ description: "From GET /v2/payee-destination/signing-data (single use, 5 minutes)" });
const signature = z
  .string()
  .regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte hex signature (0x + 130 hex digits)")
  .meta({ description: "The wallet's EIP-712 signature of that signing data" });
const chainIdSchema = z
  .union([z.number(), z.string().regex(/^\d{1,15}$/, "must be a chain ID")])
  .transform(Number)
  .pipe(
    z
      .number()
      .int()
      .positive()
      .max(2 ** 53 - 1),
  );

export const createDestinationOp = defineOperation({
  method: "POST",
  path: "/v2/payee-destination",
  operationId: "createPayeeDestination",
  summary: "Register the account's receiving destination (replaces the active one)",
  description:
    CREDENTIALS +
    "The wallet's control must be proven: a wallet session registers its own address; otherwise the wallet signs the EIP-712 data of " +
    "GET /v2/payee-destination/signing-data (action `add`) and the body carries `nonce` and `signature` (the reference's body: " +
    "currency, wallet, token and chain then default to the signed ones; any of them sent must match). Always so with a client ID. " +
    "With a client ID the wallet must also be one the account already trusts: a wallet user of the account, or its active " +
    "destination's wallet; a client ID bound to a destination (re)registers only that one (403 otherwise). " +
    "Without proof: 403; a bad, used or expired nonce or a signature that is not the wallet's: 400 naming the field.",
  tags,
  auth,
  body: z.strictObject({
    currency: z.string().max(96).optional().meta({ description: "USDC or USDT currency ID, e.g. USDC-base or USDT-tron" }),
    walletAddress: z.string().max(100).optional().meta({ description: "Defaults to the signed wallet, else the signed-in wallet" }),
    tokenAddress: z.string().max(100).optional().meta({ description: "The signed token (optional echo)" }),
    chainId: chainIdSchema.optional().meta({ description: "The signed chain (optional echo)" }),
    nonce: nonce.optional(),
    signature: signature.optional(),
  }),
  responses: { 201: { description: "Active destination", schema: stateful }, ...errorResponses(400, 401, 403, 409, 429) },
});

export const destinationSigningDataOp = defineOperation({
  method: "GET",
  path: "/v2/payee-destination/signing-data",
  operationId: "getPayeeDestinationSigningData",
  summary: "EIP-712 data a wallet signs to prove control before it is registered or deactivated",
  description:
    CREDENTIALS +
    "Single-use nonce, valid 5 minutes, bound to the caller's account, the action, the wallet, the token and the chain. " +
    "EVM wallets only: a Tron wallet signs in with the wallet instead. For `add`, the token must be a USDC or USDT of that chain.",
  tags,
  auth,
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
    ...errorResponses(400, 401, 403, 429),
  },
});

export const getActiveDestinationOp = defineOperation({
  method: "GET",
  path: "/v2/payee-destination",
  operationId: "getPayeeDestination",
  summary: "The account's active destination (null when none)",
  description:
    CREDENTIALS +
    "As the reference, the body is the destination itself or `null`. With `walletAddress`, null unless the active destination " +
    "is that wallet's; a client ID must send `walletAddress` (so a public client ID does not reveal where the account receives).",
  tags,
  auth,
  query: z.object({
    walletAddress: z.string().min(1).max(100).optional().meta({ description: "Required with a client ID" }),
  }),
  responses: {
    200: { description: "Active destination, or null", schema: stateful.nullable() },
    ...errorResponses(400, 401, 403, 429),
  },
});

export const readDestinationOp = defineOperation({
  method: "GET",
  path: "/v2/payee-destination/{destinationId}",
  operationId: "readPayeeDestination",
  summary: "A destination of the account",
  description: `${CREDENTIALS}Another account's destination: 404.`,
  tags,
  auth,
  params: idParams,
  responses: { 200: { description: "Destination", schema: stateful }, ...errorResponses(401, 403, 404, 429) },
});

/**
 * `POST /v1/payee-destination/deactivate`: the reference's auth-service route for deactivation,
 * the destination named in the body instead of the path (same proof, credentials and answers as
 * DELETE /v2/payee-destination/{destinationId}).
 */
export const deactivateDestinationByBodyV1Op = defineOperation({
  method: "POST",
  path: "/v1/payee-destination/deactivate",
  operationId: "deactivatePayeeDestinationByBodyV1",
  summary: "Deactivate a destination named in the body (auth-service route of DELETE /v2/payee-destination/{destinationId})",
  description:
    CREDENTIALS +
    "Body `{destinationId, nonce?, signature?}`: with a client ID the destination's wallet signs the signing data of action " +
    "`deactivate`; a session needs no proof. Another account's destination: 404.",
  tags,
  auth,
  body: z.strictObject({ destinationId: z.string().min(1).max(200), nonce: nonce.optional(), signature: signature.optional() }),
  responses: { 200: { description: "Deactivated", schema: stateful }, ...errorResponses(400, 401, 403, 404, 429) },
});

export const deactivateDestinationOp = defineOperation({
  method: "DELETE",
  path: "/v2/payee-destination/{destinationId}",
  operationId: "deactivatePayeeDestination",
  summary: "Deactivate a destination (client IDs bound to it are unbound)",
  description:
    CREDENTIALS +
    "With a client ID the body is the reference's `{nonce, signature}`: the destination's wallet signs the signing data of " +
    "action `deactivate` for the destination's token and chain (EVM destinations; a Tron one is deactivated from a session). " +
    "A session needs no body (a proof it sends is checked). Another account's destination: 404.",
  tags,
  auth,
  params: idParams,
  body: z.strictObject({ nonce: nonce.optional(), signature: signature.optional() }),
  bodyOptional: true,
  responses: { 200: { description: "Deactivated", schema: stateful }, ...errorResponses(400, 401, 403, 404, 429) },
});
