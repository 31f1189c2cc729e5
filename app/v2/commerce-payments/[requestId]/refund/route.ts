import { refundWithSignature } from "@/lib/commerce/refund";
import { json, withApi } from "@/lib/http/handler";
import { refundCommerceOp } from "@/lib/operations/escrow";

export const dynamic = "force-dynamic";

export const POST = withApi(refundCommerceOp, async ({ principal, params, body }) =>
  json(await refundWithSignature(principal.accountId, params.requestId, body)),
);
