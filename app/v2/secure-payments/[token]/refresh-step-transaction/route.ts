import { json, withApi } from "@/lib/http/handler";
import { refreshStepOp } from "@/lib/operations/secure-payment-tools";
import { refreshStepTransaction } from "@/lib/secure-payments/refresh-step";

export const dynamic = "force-dynamic";

export const POST = withApi(refreshStepOp, async ({ params, body }) => json(await refreshStepTransaction(params.token, body.step)));
