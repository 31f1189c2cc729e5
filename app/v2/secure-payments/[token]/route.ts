import { getPaymentPageOp } from "@/lib/contracts/secure-payments";
import { json, withApi } from "@/lib/http/handler";
import { getPaymentPageOrThrow } from "@/lib/secure-payments/page-data";

export const dynamic = "force-dynamic";

export const GET = withApi(getPaymentPageOp, async ({ params }) => json(await getPaymentPageOrThrow(params.token)));
