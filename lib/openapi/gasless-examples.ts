import type { OperationExample } from "@/lib/openapi/example-context";

/** The gasless-pay operations' examples (lib/operations/gasless.ts): a link in USDC, the payer's wallet, its signature of the plan. */
const TOKEN = { "<token>": "the `token` of [Create a secure payment link](#createSecurePayment) in USDC (a token with EIP-3009)" };
const WALLET = { "<wallet>": "the payer's wallet address (it needs the USDC, no ETH)" };

export const GASLESS_EXAMPLES: Record<string, () => OperationExample> = {
  securePaymentGaslessPlan: () => ({ params: { token: "<token>" }, query: { wallet: "<wallet>" }, placeholders: { ...TOKEN, ...WALLET } }),
  securePaymentGaslessSubmit: () => ({
    params: { token: "<token>" },
    body: { wallet: "<wallet>", salt: "<salt>", validBefore: "<validBefore>", signature: "<signature>" },
    placeholders: {
      ...TOKEN,
      ...WALLET,
      "<salt>": "the `payment.salt` of [the plan](#securePaymentGaslessPlan) for that wallet",
      "<validBefore>": "its `validBefore`",
      "<signature>": "the wallet's `eth_signTypedData_v4` signature of its `typedData`",
    },
  }),
};
