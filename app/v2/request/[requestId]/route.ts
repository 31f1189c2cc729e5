import { json, withApi } from "@/lib/http/handler";
import { updateRequestRecurrenceOp } from "@/lib/operations/recurring";
import { getRequestOp } from "@/lib/operations/requests";
import { setRecurrenceStopped } from "@/lib/recurring/manage";
import { getRequestView } from "@/lib/recurring/request-recurrence";

export const dynamic = "force-dynamic";

export const GET = withApi(getRequestOp, async ({ principal, params }) =>
  json(await getRequestView(principal.accountId, params.requestId)),
);

export const PATCH = withApi(updateRequestRecurrenceOp, async ({ principal, params, body }) =>
  json(await setRecurrenceStopped(principal, params.requestId, body.isRecurrenceStopped)),
);
