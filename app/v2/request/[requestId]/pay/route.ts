import { json, withApi } from "@/lib/http/handler";
import { payRequestOp } from "@/lib/operations/requests";
import { payRequest } from "@/lib/requests/pay-request";

export const dynamic = "force-dynamic";

export const GET = withApi(payRequestOp, async ({ principal, params, query }) =>
  json(await payRequest(principal.accountId, params.requestId, query)),
);
