import { getRequestOp } from "@/lib/contracts/requests";
import { json, withApi } from "@/lib/http/handler";
import { getRequestStatus } from "@/lib/requests/get-request";

export const dynamic = "force-dynamic";

export const GET = withApi(getRequestOp, async ({ principal, params }) =>
  json(await getRequestStatus(principal.accountId, params.requestId)),
);
