import { json, withApi } from "@/lib/http/handler";
import { createRequestOp } from "@/lib/operations/requests";
import { createRecurringRequest } from "@/lib/recurring/request-recurrence";
import { createRequest } from "@/lib/requests/create-request";

export const dynamic = "force-dynamic";

/** With `recurrence`, the request is period 1 of a recurring request (lib/recurring/request-recurrence.ts). */
export const POST = withApi(createRequestOp, async ({ principal, body }) => {
  const { recurrence } = body;
  return json(await (recurrence ? createRecurringRequest(principal, { ...body, recurrence }) : createRequest(principal, body)), 201);
});
