import { gaslessPlanView, submitGasless } from "@/lib/gasless";
import { json, withApi } from "@/lib/http/handler";
import { gaslessPlanOp, gaslessSubmitOp } from "@/lib/operations/gasless";

export const dynamic = "force-dynamic";

export const GET = withApi(gaslessPlanOp, async ({ params, query }) => json(await gaslessPlanView(params.token, query.wallet)));

export const POST = withApi(gaslessSubmitOp, async ({ params, body }) => json(await submitGasless(params.token, body)));
