import { json, withApi } from "@/lib/http/handler";
import { deactivateOrchestratorWebhookOp, reactivateOrchestratorWebhookOp } from "@/lib/operations/orchestrator-setup";
import { orchestratorIdOf } from "@/lib/orchestrators/orchestrator";
import { setOrchestratorWebhookActive } from "@/lib/orchestrators/webhooks";

export const dynamic = "force-dynamic";

export const DELETE = withApi(deactivateOrchestratorWebhookOp, async ({ principal, params }) =>
  json(await setOrchestratorWebhookActive(orchestratorIdOf(principal), params.id, false)),
);

export const PATCH = withApi(reactivateOrchestratorWebhookOp, async ({ principal, params }) =>
  json(await setOrchestratorWebhookActive(orchestratorIdOf(principal), params.id, true)),
);
