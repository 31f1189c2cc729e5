import { voidPayment } from "@/lib/commerce/operate";
import { json, withApi } from "@/lib/http/handler";
import { voidCommerceCalldataOp } from "@/lib/operations/escrow";

export const dynamic = "force-dynamic";

export const POST = withApi(voidCommerceCalldataOp, async ({ principal, params }) =>
  json(await voidPayment(principal.accountId, params.requestId, "calldata")),
);
