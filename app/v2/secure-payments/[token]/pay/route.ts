import { json, withApi } from "@/lib/api/handler";
import { payLinkOp } from "@/lib/secure-payments/operations";
import { planLinkPayment } from "@/lib/secure-payments/page-data";

export const dynamic = "force-dynamic";

export const GET = withApi(payLinkOp, async ({ params, query }) => json(await planLinkPayment(params.token, query.wallet)));
