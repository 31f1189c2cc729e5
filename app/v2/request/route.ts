import { json, withApi } from "@/lib/http/handler";
import { createRequestOp, listRequestsOp } from "@/lib/operations/requests";
import { createRequest } from "@/lib/requests/create-request";
import { listRequests } from "@/lib/requests/list-requests";

export const dynamic = "force-dynamic";

export const POST = withApi(createRequestOp, async ({ principal, body }) => json(await createRequest(principal, body), 201));

export const GET = withApi(listRequestsOp, async ({ principal, query }) => json(await listRequests(principal.accountId, query)));
