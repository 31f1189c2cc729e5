import { json, withApi } from "@/lib/http/handler";
import { createRequestOp, listRequestsOp } from "@/lib/operations/requests";
import { createRecurringRequest } from "@/lib/recurring/request-recurrence";
import { createRequest } from "@/lib/requests/create-request";
import { listRequests } from "@/lib/requests/list-requests";

export const dynamic = "force-dynamic";

/** With `recurrence`, the request is period 1 of a recurring request (lib/recurring/request-recurrence.ts). */
export const POST = withApi(createRequestOp, async ({ principal, body }) => {
  const { recurrence } = body;
  return json(await (recurrence ? createRecurringRequest(principal, { ...body, recurrence }) : createRequest(principal, body)), 201);
});

export const GET = withApi(listRequestsOp, async ({ principal, query }) => json(await listRequests(principal.accountId, query)));
