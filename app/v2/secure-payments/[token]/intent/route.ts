import { invalidField } from "@/lib/errors";
import { json, withApi } from "@/lib/http/handler";
import { recordSubmissionOp } from "@/lib/operations/secure-payments";
import { recordSafeIntent } from "@/lib/secure-payments/safe";
import { recordSubmission } from "@/lib/secure-payments/submission";

export const dynamic = "force-dynamic";

export const POST = withApi(recordSubmissionOp, async ({ params, body }) => {
  if (body.safeTxHash) return json(await recordSafeIntent(params.token, { ...body, safeTxHash: body.safeTxHash }));
  if (body.safePaymentDeadline !== undefined) throw invalidField("safePaymentDeadline", "only valid alongside safeTxHash");
  return json(await recordSubmission(params.token, body));
});
