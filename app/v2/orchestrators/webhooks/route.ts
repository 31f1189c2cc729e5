import { json, withApi } from "@/lib/http/handler";
import { createOrchestratorWebhookOp, listOrchestratorWebhooksOp } from "@/lib/operations/orchestrator-setup";
import { orchestratorIdOf } from "@/lib/orchestrators/orchestrator";
import { createOrchestratorWebhook, listOrchestratorWebhooks } from "@/lib/orchestrators/webhooks";

export const dynamic = "force-dynamic";

export const POST = withApi(createOrchestratorWebhookOp, async ({ principal, body }) =>
  json(await createOrchestratorWebhook(orchestratorIdOf(principal), body.url), 201),
);

export const GET = withApi(listOrchestratorWebhooksOp, async ({ principal }) =>
  json(await listOrchestratorWebhooks(orchestratorIdOf(principal))),
);
