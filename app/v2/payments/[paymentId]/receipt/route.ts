import { json, withApi } from "@/lib/http/handler";
import { getPaymentReceiptOp } from "@/lib/operations/receipts";
import { accountPaymentReceipt } from "@/lib/receipts/read";

export const dynamic = "force-dynamic";

export const GET = withApi(getPaymentReceiptOp, async ({ principal, params }) =>
  json(await accountPaymentReceipt(principal.accountId, params.paymentId)),
);
