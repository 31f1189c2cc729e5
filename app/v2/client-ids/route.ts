import { createOwnClientId, listOwnClientIds } from "@/lib/accounts/client-ids";
import { createClientIdOp, listClientIdsOp } from "@/lib/contracts/client-ids";
import { json, withApi } from "@/lib/http/handler";

export const dynamic = "force-dynamic";

export const POST = withApi(createClientIdOp, async ({ principal, body }) => json(await createOwnClientId(principal.accountId, body), 201));

export const GET = withApi(listClientIdsOp, async ({ principal }) => json(await listOwnClientIds(principal.accountId)));
