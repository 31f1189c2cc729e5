import * as v2 from "@/app/v2/payee-destination/route";
import { aliasRoute } from "@/lib/http/handler";
import { payoutLookupDestinationV1Op } from "@/lib/operations/auth-aliases";

export const dynamic = "force-dynamic";

/** The reference's auth-service payout lookup: the account's active destination of a recipient wallet. */
export const GET = aliasRoute(v2.GET, payoutLookupDestinationV1Op);
