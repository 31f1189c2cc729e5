import { previewFeePlan } from "@/lib/fees/preview";
import { json, withApi } from "@/lib/http/handler";
import { previewFeesOp } from "@/lib/operations/secure-payment-tools";
import { resolveLinkCreator } from "@/lib/orchestrators/linked-creator";

export const dynamic = "force-dynamic";

export const POST = withApi(previewFeesOp, async ({ req, principal, body }) => {
  // The same fee configuration a link would use: an orchestrator's for its linked client ID, else the account's.
  const creator = await resolveLinkCreator(principal, req.headers.get("x-client-id"));
  return json(await previewFeePlan(creator.principal.accountId, body, creator.orchestrated));
});
