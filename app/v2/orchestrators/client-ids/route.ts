import { principalKey } from "@/lib/auth/principal";
import { json, withApi } from "@/lib/http/handler";
import { linkClientIdOp, listLinksOp } from "@/lib/operations/orchestrators";
import { linkClientId, listLinks } from "@/lib/orchestrators/links";
import { orchestratorIdOf } from "@/lib/orchestrators/orchestrator";

export const dynamic = "force-dynamic";

export const POST = withApi(linkClientIdOp, async ({ principal, body }) => {
  const { status, body: result } = await linkClientId(orchestratorIdOf(principal), body.clientId, principalKey(principal));
  return json(result, status);
});

export const GET = withApi(listLinksOp, async ({ principal, query }) =>
  json(await listLinks(orchestratorIdOf(principal), query.page, query.limit)),
);
