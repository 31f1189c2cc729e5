import { json, withApi } from "@/lib/http/handler";
import { searchPaymentsOp } from "@/lib/operations/payments";
import { searchPayments } from "@/lib/requests/search-payments";

export const dynamic = "force-dynamic";

export const GET = withApi(searchPaymentsOp, async ({ principal, query }) => json(await searchPayments(principal.accountId, query)));
