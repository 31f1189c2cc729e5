import { json, withApi } from "@/lib/api/handler";
import { getPaymentPageOp } from "@/lib/secure-payments/operations";
import { getPaymentPageOrThrow } from "@/lib/secure-payments/page-data";

export const dynamic = "force-dynamic";

export const GET = withApi(getPaymentPageOp, async ({ params }) => json(await getPaymentPageOrThrow(params.token)));
