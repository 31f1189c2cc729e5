import { createWebhookOp, listWebhooksOp } from "@/lib/contracts/webhooks";
import { json, withApi } from "@/lib/http/handler";
import { createWebhook, listWebhooks, ownerFor } from "@/lib/webhooks/endpoints";

export const dynamic = "force-dynamic";

export const POST = withApi(createWebhookOp, async ({ principal, body }) =>
  json(await createWebhook(await ownerFor(principal, body.clientId), body.url), 201),
);

export const GET = withApi(listWebhooksOp, async ({ principal, query }) =>
  json(await listWebhooks(await ownerFor(principal, query.clientId))),
);
