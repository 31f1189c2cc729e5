import { json, withApi } from "@/lib/http/handler";
import { getPaymentPageOp } from "@/lib/operations/secure-payments";
import { getPublicLinkOrThrow } from "@/lib/secure-payments/pay-link";

export const dynamic = "force-dynamic";

export const GET = withApi(getPaymentPageOp, async ({ params, query }) => json(await getPublicLinkOrThrow(params.token, query.wallet)));
