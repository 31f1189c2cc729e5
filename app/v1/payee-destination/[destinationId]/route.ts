import * as v2 from "@/app/v2/payee-destination/[destinationId]/route";
import { aliasRoute } from "@/lib/http/handler";
import { deactivateDestinationV1Op, readDestinationV1Op } from "@/lib/operations/auth-aliases";

export const dynamic = "force-dynamic";

/** The reference's auth-service path for /v2/payee-destination/{destinationId}. */
export const GET = aliasRoute(v2.GET, readDestinationV1Op);
export const DELETE = aliasRoute(v2.DELETE, deactivateDestinationV1Op);
