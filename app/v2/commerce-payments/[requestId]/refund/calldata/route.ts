import { refundCalldata } from "@/lib/commerce/refund";
import { json, withApi } from "@/lib/http/handler";
import { refundCommerceCalldataOp } from "@/lib/operations/escrow";

export const dynamic = "force-dynamic";

export const POST = withApi(refundCommerceCalldataOp, async ({ principal, params, body }) =>
  json(await refundCalldata(principal.accountId, params.requestId, body)),
);
