import { principalKey } from "@/lib/auth/principal";
import { json, withApi } from "@/lib/http/handler";
import { unlinkClientIdOp } from "@/lib/operations/orchestrators";
import { unlinkClientId } from "@/lib/orchestrators/links";
import { orchestratorIdOf } from "@/lib/orchestrators/orchestrator";

export const dynamic = "force-dynamic";

export const DELETE = withApi(unlinkClientIdOp, async ({ principal, params }) =>
  json(await unlinkClientId(orchestratorIdOf(principal), params.clientId, principalKey(principal))),
);
