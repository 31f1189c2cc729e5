import { commerceStatus } from "@/lib/commerce/operate";
import { json, withApi } from "@/lib/http/handler";
import { commerceStatusOp } from "@/lib/operations/escrow";

export const dynamic = "force-dynamic";

export const GET = withApi(commerceStatusOp, async ({ principal, params }) =>
  json(await commerceStatus(principal.accountId, params.requestId)),
);
