import * as v2 from "@/app/v2/payee-destination/route";
import { aliasRoute } from "@/lib/http/handler";
import { lookupDestinationV1Op } from "@/lib/operations/auth-aliases";

export const dynamic = "force-dynamic";

/** The reference's auth-service lookup: GET /v2/payee-destination?walletAddress= at its path. */
export const GET = aliasRoute(v2.GET, lookupDestinationV1Op);
