import { json, withApi } from "@/lib/http/handler";
import { createLinkIntentOp } from "@/lib/operations/orchestrators";
import { createIntent } from "@/lib/orchestrators/intents";
import { orchestratorIdOf } from "@/lib/orchestrators/orchestrator";

export const dynamic = "force-dynamic";

export const POST = withApi(createLinkIntentOp, async ({ principal, body }) =>
  json(await createIntent(orchestratorIdOf(principal), body), 201),
);
