import { json, withApi } from "@/lib/http/handler";
import { redeliverOp } from "@/lib/operations/webhooks";
import { ownerFor } from "@/lib/webhooks/endpoints";
import { redeliverForOwner } from "@/lib/webhooks/manage-deliveries";

export const dynamic = "force-dynamic";

export const POST = withApi(redeliverOp, async ({ principal, params }) =>
  json(await redeliverForOwner(await ownerFor(principal, undefined), params.id, params.deliveryId), 201),
);
