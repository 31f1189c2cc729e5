import { json, withApi } from "@/lib/http/handler";
import { listDeliveriesOp } from "@/lib/operations/webhooks";
import { ownerFor } from "@/lib/webhooks/endpoints";
import { listDeliveries } from "@/lib/webhooks/manage-deliveries";

export const dynamic = "force-dynamic";

export const GET = withApi(listDeliveriesOp, async ({ principal, params, query }) =>
  json(await listDeliveries(await ownerFor(principal, undefined), params.id, query.limit)),
);
