import type { ExampleContext, OperationExample } from "@/lib/openapi/example-context";

/** The gasless-pay operations' examples (lib/operations/gasless.ts): a link in USDC, the payer's wallet, its signature of the plan. */
const TOKEN = { "<token>": "the `token` of [Create a secure payment link](#createSecurePayment) in USDC (a token with EIP-3009)" };

export const GASLESS_EXAMPLES: Record<string, (ctx: ExampleContext) => OperationExample> = {
  securePaymentGaslessPlan: (ctx) => ({ params: { token: "<token>" }, query: { wallet: ctx.payer }, placeholders: TOKEN }),
  securePaymentGaslessSubmit: (ctx) => ({
    params: { token: "<token>" },
    body: { wallet: ctx.payer, salt: "<planSalt>", validBefore: "<planValidBefore>", signature: "<planSignature>" },
    placeholders: {
      ...TOKEN,
      "<planSalt>": "the `payment.salt` of [the plan](#securePaymentGaslessPlan) of that link for this wallet",
      "<planValidBefore>": "its `validBefore`",
      "<planSignature>": "the wallet's `eth_signTypedData_v4` signature of its `typedData` (the wallet holds the USDC; it needs no ETH)",
    },
  }),
};
