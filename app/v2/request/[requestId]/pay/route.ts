import { payRequestOp } from "@/lib/contracts/requests";
import { json, withApi } from "@/lib/http/handler";
import { payRequest } from "@/lib/requests/pay-request";

export const dynamic = "force-dynamic";

export const GET = withApi(payRequestOp, async ({ principal, params, query }) =>
  json(await payRequest(principal.accountId, params.requestId, query)),
);
