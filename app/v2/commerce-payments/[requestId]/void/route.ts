import { voidPayment } from "@/lib/commerce/operate";
import { json, withApi } from "@/lib/http/handler";
import { voidCommerceOp } from "@/lib/operations/escrow";

export const dynamic = "force-dynamic";

export const POST = withApi(voidCommerceOp, async ({ principal, params }) =>
  json(await voidPayment(principal.accountId, params.requestId, "relay")),
);
