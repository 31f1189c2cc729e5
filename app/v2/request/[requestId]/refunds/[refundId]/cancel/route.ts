import { json, withApi } from "@/lib/http/handler";
import { cancelRefundOp } from "@/lib/operations/refunds";
import { cancelRefund } from "@/lib/refunds";

export const dynamic = "force-dynamic";

export const POST = withApi(cancelRefundOp, async ({ principal, params }) =>
  json(await cancelRefund(principal.accountId, params.requestId, params.refundId)),
);
