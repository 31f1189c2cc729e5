import { json, withApi } from "@/lib/http/handler";
import { deleteWebhookOp, updateWebhookOp } from "@/lib/operations/webhooks";
import { deleteWebhook, ownerFor, setWebhookActive } from "@/lib/webhooks/endpoints";

export const dynamic = "force-dynamic";

export const PUT = withApi(updateWebhookOp, async ({ principal, params, body }) =>
  json(await setWebhookActive(await ownerFor(principal, undefined), params.id, body.active)),
);

export const DELETE = withApi(deleteWebhookOp, async ({ principal, params }) =>
  json(await deleteWebhook(await ownerFor(principal, undefined), params.id)),
);
