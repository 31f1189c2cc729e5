import { json, withApi } from "@/lib/http/handler";
import { createWebhookOp, listWebhooksOp } from "@/lib/operations/webhooks";
import { createWebhook, listWebhooks, ownerFor } from "@/lib/webhooks/endpoints";

export const dynamic = "force-dynamic";

export const POST = withApi(createWebhookOp, async ({ principal, body }) =>
  json(await createWebhook(await ownerFor(principal, body.clientId), body.url), 201),
);

/** The reference's array of `{id, url, isActive, createdAt, …}`; secrets are never listed (they are shown once, at registration). */
export const GET = withApi(listWebhooksOp, async ({ principal, query }) => {
  const { webhooks } = await listWebhooks(await ownerFor(principal, query.clientId));
  return json(webhooks.map((w) => ({ ...w, isActive: w.active })));
});
