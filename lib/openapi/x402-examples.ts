import type { OperationExample } from "@/lib/openapi/example-context";

/**
 * The x402 operations' examples (lib/operations/x402.ts). The resource URLs show the 402 a client
 * gets first (an x402 client such as @x402/fetch then signs and retries on its own); the facilitator's
 * examples are generated from the schemas' example payment, which is not a Duebill request's, so they
 * show a refusal in the spec's 200 body.
 */
export const X402_EXAMPLES: Record<string, () => OperationExample> = {
  x402PayRequest: () => ({
    params: { requestId: "<requestId>" },
    placeholders: { "<requestId>": "the `requestId` of [Create a payment request](#createRequest) (in a token with EIP-3009, e.g. USDC)" },
    status: 402,
  }),
  x402PaySecurePayment: () => ({
    params: { token: "<token>" },
    placeholders: { "<token>": "the `token` of [Create a secure payment link](#createSecurePayment)" },
    status: 402,
  }),
};
