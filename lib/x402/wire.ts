import { z } from "zod";

/**
 * The x402 v2 wire format (x402-foundation/x402, specs/x402-specification-v2.md; the official
 * @x402/core types), written from the spec so lib/ carries no @x402 runtime (docs/toolchain.md: that
 * package family broke the Turbopack build once). Scheme `exact` on EVM with EIP-3009 only.
 */
export const X402_VERSION = 2;

/** Request header of a v2 payment; v1 clients send X-PAYMENT (refused by name: v1 names networks, v2 uses CAIP-2). */
export const PAYMENT_SIGNATURE = "payment-signature";
export const X_PAYMENT = "x-payment";
/** Response headers: the 402's requirements and the 200's settlement, each base64 of JSON. */
export const PAYMENT_REQUIRED = "PAYMENT-REQUIRED";
export const PAYMENT_RESPONSE = "PAYMENT-RESPONSE";

const uint = z.string().regex(/^\d{1,78}$/, "must be an integer string in base units");
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address");
/** The documentation's example payment: 10.10 USDC on Base to a request's deposit address. */
const EX = {
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  payTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  amount: "10100000",
};

export const paymentRequirementsSchema = z.strictObject({
  scheme: z.string().max(32).meta({ example: "exact" }),
  /** CAIP-2, e.g. `eip155:8453`. */
  network: z.string().max(64).meta({ example: "eip155:8453", description: "CAIP-2 network ID" }),
  asset: address.meta({ example: EX.asset }),
  amount: uint.meta({ example: EX.amount, description: "Base units of the asset" }),
  payTo: address.meta({ example: EX.payTo }),
  maxTimeoutSeconds: z.number().int().min(1).max(86_400).meta({ example: 300 }),
  /** The token's EIP-712 domain {name, version} for scheme `exact` (other keys are ignored). */
  extra: z.record(z.string(), z.unknown()).meta({ example: { name: "USD Coin", version: "2" } }),
});
export type PaymentRequirements = z.infer<typeof paymentRequirementsSchema>;

export const resourceInfoSchema = z.object({
  url: z.string().max(2048),
  description: z.string().max(1000).optional(),
  mimeType: z.string().max(200).optional(),
});

/** The `exact` EVM payload of EIP-3009: the TransferWithAuthorization message and its signature. */
export const exactEvmPayloadSchema = z.strictObject({
  signature: z
    .string()
    .regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte hex signature")
    .meta({ example: `0x${"ab".repeat(64)}1b` }),
  authorization: z.strictObject({
    from: address.meta({ example: EX.from }),
    to: address.meta({ example: EX.payTo }),
    value: uint.meta({ example: EX.amount }),
    validAfter: uint.meta({ example: "0" }),
    validBefore: uint.meta({ example: "1767225600" }),
    nonce: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 32-byte hex nonce")
      .meta({ example: `0x${"5e".repeat(32)}` }),
  }),
});
export type ExactEvmPayload = z.infer<typeof exactEvmPayloadSchema>;

export const paymentPayloadSchema = z.strictObject({
  x402Version: z.number().int().meta({ example: 2 }),
  resource: resourceInfoSchema.optional(),
  accepted: paymentRequirementsSchema,
  payload: exactEvmPayloadSchema,
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type PaymentPayload = z.infer<typeof paymentPayloadSchema>;

/** Body of POST /verify and POST /settle. */
export const facilitatorRequestSchema = z.strictObject({
  x402Version: z.number().int().meta({ example: 2 }),
  paymentPayload: paymentPayloadSchema,
  paymentRequirements: paymentRequirementsSchema,
});
export type FacilitatorRequest = z.infer<typeof facilitatorRequestSchema>;

export interface VerifyResponse {
  isValid: boolean;
  invalidReason?: string;
  invalidMessage?: string;
  payer?: string;
}

export interface SettleResponse {
  success: boolean;
  errorReason?: string;
  errorMessage?: string;
  payer?: string;
  /** The transaction hash; "" when nothing was sent. */
  transaction: string;
  network: string;
  amount?: string;
}

export interface PaymentRequired {
  x402Version: number;
  error?: string;
  resource: z.infer<typeof resourceInfoSchema>;
  accepts: PaymentRequirements[];
}

export const caip2 = (chainId: number) => `eip155:${chainId}`;

/** `eip155:<chainId>` → chainId; null for anything else (Solana, a v1 network name…). */
export function chainIdOf(network: string): number | null {
  const m = /^eip155:(\d{1,12})$/.exec(network);
  return m ? Number(m[1]) : null;
}

export const encodeHeader = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64");

/** base64 JSON → value; null when it is not (the caller names the header). */
export function decodeHeader(value: string): unknown {
  if (value.length > 16_384 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return null;
  try {
    return JSON.parse(Buffer.from(value, "base64").toString("utf8"));
  } catch {
    return null;
  }
}
