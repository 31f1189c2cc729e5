import { json, withApi } from "@/lib/http/handler";
import { testOrchestratorWebhooksOp } from "@/lib/operations/orchestrator-setup";
import { orchestratorIdOf } from "@/lib/orchestrators/orchestrator";
import { testOrchestratorWebhooks } from "@/lib/orchestrators/webhooks";

export const dynamic = "force-dynamic";

export const POST = withApi(testOrchestratorWebhooksOp, async ({ principal, body }) =>
  json(await testOrchestratorWebhooks(orchestratorIdOf(principal), body.eventType), 201),
);
