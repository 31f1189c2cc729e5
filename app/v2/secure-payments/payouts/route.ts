import { json, withApi } from "@/lib/http/handler";
import { createPayoutLinkOp } from "@/lib/operations/secure-payments";
import { resolveLinkCreator } from "@/lib/orchestrators/linked-creator";
import { createPayoutLink } from "@/lib/secure-payments/create-secure-payment";

export const dynamic = "force-dynamic";

export const POST = withApi(createPayoutLinkOp, async ({ req, principal, body }) => {
  const creator = await resolveLinkCreator(principal, req.headers.get("x-client-id"));
  return json(await createPayoutLink(creator.principal, body, creator.orchestrated), 201);
});
