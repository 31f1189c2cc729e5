import { json, withApi } from "@/lib/api/handler";
import { getRequestStatus } from "@/lib/requests/get-request";
import { getRequestOp } from "@/lib/requests/operations";

export const dynamic = "force-dynamic";

export const GET = withApi(getRequestOp, async ({ principal, params }) => json(await getRequestStatus(principal.accountId, params.requestId)));
