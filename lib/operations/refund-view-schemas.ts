import { z } from "zod";

/**
 * A refund as the API shows it, and the refund fields of GET /v2/request/{requestId}: apart from
 * refunds-schemas.ts so requests-schemas.ts can use them without an import cycle.
 */
export const decimal = (description: string, example = "5") => z.string().meta({ description, example });

export const refundSchema = z
  .object({
    id: z.string().meta({ example: "rfd_01JH3Q8Z6X9V2M4N7P5R8T1W3Y" }),
    requestId: z.string(),
    status: z.enum(["prepared", "sent", "confirmed", "cancelled"]).meta({
      description:
        "prepared: transactions handed out; sent: the wallet reported its transaction; confirmed: detection recorded the transfer on chain; cancelled: withdrawn (its amount is free again)",
    }),
    reason: z.enum(["requested", "excess", "underpaid", "late"]),
    sender: z.enum(["payee", "relayer"]).meta({
      description: "payee: the payee's wallet sends it; relayer: Duebill's deposit relayer returns what reached a deposit address",
    }),
    amount: decimal("In the payment currency"),
    currency: z.string().meta({ example: "USDC-base" }),
    network: z.string(),
    tokenAddress: z.string(),
    toAddress: z.string(),
    refundReference: z.string().meta({
      description: "The request's payment reference computed with the refund address (0x + 16 hex): what the fee proxy's event carries",
      example: "0x2f6e4c1d9a7b3e05",
    }),
    warning: z.string().nullable(),
    txHash: z.string().nullable(),
    blockNumber: z.number().int().nullable(),
    explorer: z.string().nullable(),
    createdAt: z.string(),
    sentAt: z.string().nullable(),
    confirmedAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
  })
  .meta({ id: "Refund" });

/** The refund fields GET /v2/request/{requestId} adds to the request (Duebill extension). */
export const refundTotalsShape = {
  refundedAmount: decimal("The payee's confirmed refunds, in the payment currency (fee excluded)", "0"),
  returnedAmount: decimal("What Duebill's deposit relayer sent back (never reached the payee)", "0"),
  refundableAmount: decimal("What the payee can still refund: received minus refunds confirmed, sent or prepared", "0"),
  refundStatus: z.enum(["none", "partially_refunded", "refunded"]).meta({
    description: "refunded once the payee's confirmed refunds reach what it received; the payment `status` is unchanged by refunds",
  }),
  refunds: z.array(refundSchema),
};
