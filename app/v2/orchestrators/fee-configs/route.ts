import { json, withApi } from "@/lib/http/handler";
import { createFeeConfigOp, listFeeConfigsOp } from "@/lib/operations/orchestrator-setup";
import { createFeeConfig, listFeeConfigs } from "@/lib/orchestrators/fee-configs";
import { orchestratorIdOf } from "@/lib/orchestrators/orchestrator";

export const dynamic = "force-dynamic";

export const POST = withApi(createFeeConfigOp, async ({ principal, body }) =>
  json(await createFeeConfig(orchestratorIdOf(principal), body), 201),
);

export const GET = withApi(listFeeConfigsOp, async ({ principal, query }) =>
  json(await listFeeConfigs(orchestratorIdOf(principal), query.clientId)),
);
