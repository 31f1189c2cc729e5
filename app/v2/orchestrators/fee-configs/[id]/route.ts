import { json, withApi } from "@/lib/http/handler";
import { disableFeeConfigOp, updateFeeConfigOp } from "@/lib/operations/orchestrator-setup";
import { disableFeeConfig, updateFeeConfig } from "@/lib/orchestrators/fee-configs";
import { orchestratorIdOf } from "@/lib/orchestrators/orchestrator";

export const dynamic = "force-dynamic";

export const PATCH = withApi(updateFeeConfigOp, async ({ principal, params, body }) =>
  json(await updateFeeConfig(orchestratorIdOf(principal), params.id, body)),
);

export const DELETE = withApi(disableFeeConfigOp, async ({ principal, params }) =>
  json(await disableFeeConfig(orchestratorIdOf(principal), params.id)),
);
