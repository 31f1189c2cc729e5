import { json, withApi } from "@/lib/http/handler";
import { getRequestRoutesOp } from "@/lib/operations/requests";
import { listRoutes } from "@/lib/requests/pay-request";

export const dynamic = "force-dynamic";

export const GET = withApi(getRequestRoutesOp, async ({ principal, params, query }) =>
  json(await listRoutes(principal.accountId, params.requestId, query)),
);
