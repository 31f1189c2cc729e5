import * as v2 from "@/app/v2/client-ids/[id]/route";
import { aliasRoute } from "@/lib/http/handler";
import { getClientIdV1Op, revokeClientIdV1Op, updateClientIdV1Op } from "@/lib/operations/auth-aliases";

export const dynamic = "force-dynamic";

/** The reference's auth-service path for /v2/client-ids/{id}. */
export const GET = aliasRoute(v2.GET, getClientIdV1Op);
export const PUT = aliasRoute(v2.PUT, updateClientIdV1Op);
export const DELETE = aliasRoute(v2.DELETE, revokeClientIdV1Op);
