import { createOwnClientId, listOwnClientIds } from "@/lib/accounts/client-ids";
import { json, withApi } from "@/lib/http/handler";
import { createClientIdOp, listClientIdsOp } from "@/lib/operations/client-ids";

export const dynamic = "force-dynamic";

export const POST = withApi(createClientIdOp, async ({ principal, body }) => json(await createOwnClientId(principal.accountId, body), 201));

export const GET = withApi(listClientIdsOp, async ({ principal }) => json(await listOwnClientIds(principal.accountId)));
