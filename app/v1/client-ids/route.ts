import * as v2 from "@/app/v2/client-ids/route";
import { aliasRoute } from "@/lib/http/handler";
import { createClientIdV1Op, listClientIdsV1Op } from "@/lib/operations/auth-aliases";

export const dynamic = "force-dynamic";

/** The reference's auth-service path for /v2/client-ids. */
export const POST = aliasRoute(v2.POST, createClientIdV1Op);
export const GET = aliasRoute(v2.GET, listClientIdsV1Op);
