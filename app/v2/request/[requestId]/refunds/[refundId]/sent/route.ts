import { json, withApi } from "@/lib/http/handler";
import { markRefundSentOp } from "@/lib/operations/refunds";
import { markRefundSent } from "@/lib/refunds";

export const dynamic = "force-dynamic";

export const POST = withApi(markRefundSentOp, async ({ principal, params, body }) =>
  json(await markRefundSent(principal.accountId, params.requestId, params.refundId, body.txHash)),
);
