import { json, withApi } from "@/lib/http/handler";
import { createRequestOp } from "@/lib/operations/requests";
import { createRequest } from "@/lib/requests/create-request";

export const dynamic = "force-dynamic";

export const POST = withApi(createRequestOp, async ({ principal, body }) => json(await createRequest(principal, body), 201));
