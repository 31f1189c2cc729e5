import { json, withApi } from "@/lib/http/handler";
import { createSecurePaymentOp, getSecurePaymentOp } from "@/lib/operations/secure-payments";
import { resolveLinkCreator } from "@/lib/orchestrators/linked-creator";
import { createSecurePayment } from "@/lib/secure-payments/create-secure-payment";
import { getSecurePaymentByRequest } from "@/lib/secure-payments/get-secure-payment";

export const dynamic = "force-dynamic";

export const POST = withApi(createSecurePaymentOp, async ({ req, principal, body }) => {
  const creator = await resolveLinkCreator(principal, req.headers.get("x-client-id"));
  return json(await createSecurePayment(creator.principal, body, creator.orchestrated), 201);
});

export const GET = withApi(getSecurePaymentOp, async ({ principal, query }) =>
  json(await getSecurePaymentByRequest(principal.accountId, query.requestId)),
);
