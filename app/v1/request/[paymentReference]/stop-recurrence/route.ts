import { withApi } from "@/lib/http/handler";
import { stopRequestRecurrenceV1Op } from "@/lib/operations/recurring";
import { stopRecurrenceByPaymentReference } from "@/lib/recurring/manage";

export const dynamic = "force-dynamic";

/** The reference's v1 stop: 200 with an empty body, as its clients expect (requestVoid). */
export const PATCH = withApi(stopRequestRecurrenceV1Op, async ({ principal, params }) => {
  await stopRecurrenceByPaymentReference(principal, params.paymentReference);
  return new Response(null, { status: 200, headers: { "cache-control": "no-store" } });
});
