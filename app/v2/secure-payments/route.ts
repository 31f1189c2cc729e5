import { createSecurePaymentOp, getSecurePaymentOp } from "@/lib/contracts/secure-payments";
import { json, withApi } from "@/lib/http/handler";
import { createSecurePayment } from "@/lib/secure-payments/create-secure-payment";
import { getSecurePaymentByRequest } from "@/lib/secure-payments/get-secure-payment";

export const dynamic = "force-dynamic";

export const POST = withApi(createSecurePaymentOp, async ({ principal, body }) => json(await createSecurePayment(principal, body), 201));

export const GET = withApi(getSecurePaymentOp, async ({ principal, query }) =>
  json(await getSecurePaymentByRequest(principal.accountId, query.requestId)),
);
