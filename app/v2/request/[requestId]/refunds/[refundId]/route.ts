import { json, withApi } from "@/lib/http/handler";
import { getRefundOp } from "@/lib/operations/refunds";
import { getRefund } from "@/lib/refunds";

export const dynamic = "force-dynamic";

export const GET = withApi(getRefundOp, async ({ principal, params, query }) =>
  json(await getRefund(principal.accountId, params.requestId, params.refundId, query)),
);
