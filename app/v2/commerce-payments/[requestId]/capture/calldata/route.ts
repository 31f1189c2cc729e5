import { capture } from "@/lib/commerce/operate";
import { json, withApi } from "@/lib/http/handler";
import { captureCommerceCalldataOp } from "@/lib/operations/escrow";

export const dynamic = "force-dynamic";

export const POST = withApi(captureCommerceCalldataOp, async ({ principal, params, body }) =>
  json(await capture(principal.accountId, params.requestId, body ?? {}, "calldata")),
);
