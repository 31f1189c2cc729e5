import { withApi } from "@/lib/http/handler";
import { testWebhookOp } from "@/lib/operations/webhooks";
import { ownerFor } from "@/lib/webhooks/endpoints";
import { sendTestDeliveries } from "@/lib/webhooks/manage-deliveries";

export const dynamic = "force-dynamic";

export const POST = withApi(testWebhookOp, async ({ principal, body }) => {
  await sendTestDeliveries(await ownerFor(principal, body.clientId), body.eventType);
  return new Response(null, { status: 201 });
});
