import { z } from "zod";

/**
 * How a request or link was paid (lib/refunds/labels.ts, docs/guides/refunds.md): Duebill extension, with
 * Request Network's `excessAmount`. Shared by the request status, the link views and the payment list.
 */
export const amountLabelShape = {
  amountLabel: z
    .enum(["exact", "over", "under", "late"])
    .nullable()
    .meta({
      description:
        "Duebill extension: exact, over (more than the amount: see excessAmount), under (its link expired short of the amount), " +
        "late (money came after its link expired); null while nothing is paid or a partial payment can still be completed",
    }),
  excessAmount: z.string().meta({
    description: 'What the payer sent above the amount, in the amount\'s currency ("0" when none); a returned excess counts',
    example: "0",
  }),
  returnedAmount: z.string().meta({
    description: 'Duebill extension: what the deposit relayer sent back to the payer from the deposit address ("0" when none)',
    example: "0",
  }),
};

/** ExcessPolicy (lib/refunds/policy.ts): what happens to money a request did not ask for. */
export const excessPolicySchema = z.enum(["return", "offer", "keep"]);
