import type { TypedDataDefinition } from "viem";

/**
 * The permit a payer re-signs (GET /v2/subscriptions/{token}/permit, lib/recurring/permit-renewal.ts)
 * travels as JSON, so its uint128/uint256 values (amount, fees, nonce, deadline) are decimal strings:
 * a JS number would lose digits past 2^53. Signers take bigints there. This is the one way back, used
 * by the payer page's wallet (components/subscriptions/fix-panel.tsx), the tests and the docs
 * examples; it imports nothing at runtime, so the client bundle can hold it
 * (tests/architecture/layers-app.test.ts).
 */

/** Typed data as the API serialises it: integer values that may not fit a JS number are decimal strings. */
export interface JsonTypedData {
  domain: Record<string, unknown>;
  types: Record<string, readonly { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/**
 * The typed data ready to sign: every field the primary type declares as an integer (uintN/intN)
 * that arrives as a decimal string becomes a bigint. The types travel with the message, so the
 * conversion follows them rather than a list of names kept in step by hand; everything else
 * (addresses, bytes, the uint32[] due times already sent as numbers) is passed as is.
 */
export function typedDataToSign(typed: JsonTypedData): TypedDataDefinition {
  const integers = new Set((typed.types[typed.primaryType] ?? []).filter((f) => /^u?int\d*$/.test(f.type)).map((f) => f.name));
  const message = Object.fromEntries(
    Object.entries(typed.message).map(([k, v]) => [k, integers.has(k) && typeof v === "string" ? BigInt(v) : v]),
  );
  return { domain: typed.domain, types: typed.types, primaryType: typed.primaryType, message } as TypedDataDefinition;
}
