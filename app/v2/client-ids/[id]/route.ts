import { getOwnClientId, revokeOwnClientId, updateOwnClientId } from "@/lib/accounts/client-ids";
import { json, withApi } from "@/lib/http/handler";
import { getClientIdOp, revokeClientIdOp, updateClientIdOp } from "@/lib/operations/client-ids";

export const dynamic = "force-dynamic";

export const GET = withApi(getClientIdOp, async ({ principal, params }) => json(await getOwnClientId(principal.accountId, params.id)));

export const PUT = withApi(updateClientIdOp, async ({ principal, params, body }) =>
  json(await updateOwnClientId(principal.accountId, params.id, body)),
);

export const DELETE = withApi(revokeClientIdOp, async ({ principal, params }) =>
  json(await revokeOwnClientId(principal.accountId, params.id)),
);
