import { json, withApi } from "@/lib/http/handler";
import { getRefundReceiptOp } from "@/lib/operations/receipts";
import { accountRefundReceipt } from "@/lib/receipts/read";

export const dynamic = "force-dynamic";

export const GET = withApi(getRefundReceiptOp, async ({ principal, params }) =>
  json(await accountRefundReceipt(principal.accountId, params.requestId, params.refundId)),
);
