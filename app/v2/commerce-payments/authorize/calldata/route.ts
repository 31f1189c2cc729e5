import { prepareAuthorization } from "@/lib/commerce/authorize";
import { json, withApi } from "@/lib/http/handler";
import { authorizeCommerceCalldataOp } from "@/lib/operations/escrow";

export const dynamic = "force-dynamic";

export const POST = withApi(authorizeCommerceCalldataOp, async ({ principal, body }) =>
  json(await prepareAuthorization(principal.accountId, body), 201),
);
