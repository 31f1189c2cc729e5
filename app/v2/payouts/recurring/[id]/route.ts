import { json, withApi } from "@/lib/http/handler";
import { activateRecurringOp, getRecurringOp, manageRecurringOp } from "@/lib/operations/recurring";
import { activateSchedule, getSchedule, manageSchedule } from "@/lib/recurring/manage";

export const dynamic = "force-dynamic";

export const POST = withApi(activateRecurringOp, async ({ principal, params, body }) =>
  json(await activateSchedule(principal, params.id, body.permitSignature), 201),
);

export const GET = withApi(getRecurringOp, async ({ principal, params }) => json(await getSchedule(principal, params.id)));

export const PATCH = withApi(manageRecurringOp, async ({ principal, params, body }) =>
  json(await manageSchedule(principal, params.id, body.action)),
);
