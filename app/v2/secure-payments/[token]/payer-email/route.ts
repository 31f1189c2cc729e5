import { json, withApi } from "@/lib/http/handler";
import { setPayerEmailOp } from "@/lib/operations/secure-payment-tools";
import { setPayerEmail } from "@/lib/secure-payments/payer-email";

export const dynamic = "force-dynamic";

export const POST = withApi(setPayerEmailOp, async ({ params, body }) =>
  json(await setPayerEmail(params.token, body.email === "" ? null : body.email)),
);
