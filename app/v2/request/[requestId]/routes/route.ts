import { json, withApi } from "@/lib/api/handler";
import { getRequestRoutesOp } from "@/lib/requests/operations";
import { listRoutes } from "@/lib/requests/pay-request";

export const dynamic = "force-dynamic";

export const GET = withApi(getRequestRoutesOp, async ({ principal, params, query }) => json(await listRoutes(principal.accountId, params.requestId, query)));
