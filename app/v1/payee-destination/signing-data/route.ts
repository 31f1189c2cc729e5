import * as v2 from "@/app/v2/payee-destination/signing-data/route";
import { aliasRoute } from "@/lib/http/handler";
import { destinationSigningDataV1Op } from "@/lib/operations/auth-aliases";

export const dynamic = "force-dynamic";

/** The reference's auth-service path for /v2/payee-destination/signing-data. */
export const GET = aliasRoute(v2.GET, destinationSigningDataV1Op);
