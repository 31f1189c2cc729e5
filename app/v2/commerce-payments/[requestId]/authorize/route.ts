import { authorizeWithSignature } from "@/lib/commerce/authorize";
import { json, withApi } from "@/lib/http/handler";
import { authorizeCommerceOp } from "@/lib/operations/escrow";

export const dynamic = "force-dynamic";

export const POST = withApi(authorizeCommerceOp, async ({ principal, params, body }) =>
  json(await authorizeWithSignature(principal.accountId, params.requestId, body)),
);
