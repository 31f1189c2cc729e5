import { refreshStepOp } from "@/lib/contracts/secure-payment-tools";
import { json, withApi } from "@/lib/http/handler";
import { refreshStepTransaction } from "@/lib/secure-payments/refresh-step";

export const dynamic = "force-dynamic";

export const POST = withApi(refreshStepOp, async ({ params, body }) => json(await refreshStepTransaction(params.token, body.step)));
