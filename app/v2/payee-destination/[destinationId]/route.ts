import { json, withApi } from "@/lib/api/handler";
import { deactivateDestination, readDestination } from "@/lib/destinations/destinations";
import { deactivateDestinationOp, readDestinationOp } from "@/lib/destinations/operations";

export const dynamic = "force-dynamic";

export const GET = withApi(readDestinationOp, async ({ principal, params }) => json(await readDestination(principal.accountId, params.destinationId)));

export const DELETE = withApi(deactivateDestinationOp, async ({ principal, params }) =>
  json(await deactivateDestination(principal.accountId, params.destinationId)),
);
