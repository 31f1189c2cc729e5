import type { ExampleContext, OperationExample } from "@/lib/openapi/example-context";

/** The payer's subscription operations' examples (lib/operations/subscriptions.ts): an active recurring payout's page token. */
const TOKEN = {
  "<subscriptionToken>":
    "the last path segment of the `payerUrl` (…/subscriptions/{token}) of [an active recurring payout](#getRecurringPayout)",
};

export const SUBSCRIPTION_EXAMPLES: Record<string, (ctx: ExampleContext) => OperationExample> = {
  getSubscriptionPermitRenewal: () => ({ params: { token: "<subscriptionToken>" }, placeholders: TOKEN }),
  renewSubscriptionPermit: () => ({
    params: { token: "<subscriptionToken>" },
    body: { deadline: "<renewalDeadline>", signature: "<renewalSignature>" },
    placeholders: {
      ...TOKEN,
      "<renewalDeadline>": "the `deadline` of [the renewal](#getSubscriptionPermitRenewal) of that subscription",
      "<renewalSignature>": "the payer's `eth_signTypedData_v4` signature of its `typedData`",
    },
  }),
};
