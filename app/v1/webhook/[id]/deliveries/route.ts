import { json, withApi } from "@/lib/api/handler";
import { ownerFor } from "@/lib/webhooks/endpoints";
import { listDeliveries } from "@/lib/webhooks/manage-deliveries";
import { listDeliveriesOp } from "@/lib/webhooks/operations";

export const dynamic = "force-dynamic";

export const GET = withApi(listDeliveriesOp, async ({ principal, params, query }) =>
  json(await listDeliveries(await ownerFor(principal, undefined), params.id, query.limit)),
);
