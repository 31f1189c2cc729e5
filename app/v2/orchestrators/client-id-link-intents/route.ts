import { json, withApi } from "@/lib/http/handler";
import { createLinkIntentOp } from "@/lib/operations/orchestrators";
import { createLinkIntent } from "@/lib/orchestrators/link-intents";
import { orchestratorIdOf } from "@/lib/orchestrators/orchestrator";

export const dynamic = "force-dynamic";

export const POST = withApi(createLinkIntentOp, async ({ principal, body }) =>
  json(await createLinkIntent(orchestratorIdOf(principal), body), 201),
);
