import { deactivateDestinationAs, readDestination } from "@/lib/destinations/destinations";
import { json, withApi } from "@/lib/http/handler";
import { deactivateDestinationOp, readDestinationOp } from "@/lib/operations/destinations";

export const dynamic = "force-dynamic";

export const GET = withApi(readDestinationOp, async ({ principal, params }) =>
  json(await readDestination(principal.accountId, params.destinationId)),
);

export const DELETE = withApi(deactivateDestinationOp, async ({ principal, params, body }) =>
  json(await deactivateDestinationAs(principal, params.destinationId, body)),
);
