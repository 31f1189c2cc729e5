import { json, withApi } from "@/lib/http/handler";
import { recordSubmissionOp } from "@/lib/operations/secure-payments";
import { recordSubmission } from "@/lib/secure-payments/submission";

export const dynamic = "force-dynamic";

export const POST = withApi(recordSubmissionOp, async ({ params, body }) => json(await recordSubmission(params.token, body)));
