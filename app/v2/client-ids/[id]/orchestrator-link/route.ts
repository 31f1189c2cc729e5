import { principalKey } from "@/lib/auth/principal";
import { json, withApi } from "@/lib/http/handler";
import { endOrchestratorLinkOp, getOrchestratorLinkOp } from "@/lib/operations/client-ids";
import { endLinkByPlatform, platformLinkOf } from "@/lib/orchestrators/links";

export const dynamic = "force-dynamic";

export const GET = withApi(getOrchestratorLinkOp, async ({ principal, params }) =>
  json(await platformLinkOf(principal.accountId, params.id)),
);

export const DELETE = withApi(endOrchestratorLinkOp, async ({ principal, params }) =>
  json(await endLinkByPlatform(principal.accountId, params.id, principalKey(principal))),
);
