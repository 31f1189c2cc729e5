import * as v2 from "@/app/v2/payee-destination/route";
import { aliasRoute } from "@/lib/http/handler";
import { createDestinationV1Op, getActiveDestinationV1Op } from "@/lib/operations/auth-aliases";

export const dynamic = "force-dynamic";

/** The reference's auth-service path for /v2/payee-destination. */
export const POST = aliasRoute(v2.POST, createDestinationV1Op);
export const GET = aliasRoute(v2.GET, getActiveDestinationV1Op);
