import { json, withApi } from "@/lib/http/handler";
import { listOrchestratorLinksOp } from "@/lib/operations/client-ids";
import { platformLinks } from "@/lib/orchestrators/links";

export const dynamic = "force-dynamic";

export const GET = withApi(listOrchestratorLinksOp, async ({ principal }) => json(await platformLinks(principal.accountId)));
