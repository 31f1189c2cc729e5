import { json, withApi } from "@/lib/api/handler";
import { createRequest } from "@/lib/requests/create-request";
import { createRequestOp } from "@/lib/requests/operations";

export const dynamic = "force-dynamic";

export const POST = withApi(createRequestOp, async ({ principal, body }) => json(await createRequest(principal, body), 201));
