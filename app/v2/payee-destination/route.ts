import { json, withApi } from "@/lib/api/handler";
import { createDestination, listDestinations } from "@/lib/destinations/destinations";
import { createDestinationOp, getActiveDestinationOp } from "@/lib/destinations/operations";

export const dynamic = "force-dynamic";

export const POST = withApi(createDestinationOp, async ({ principal, body }) => json(await createDestination(principal, body), 201));

export const GET = withApi(getActiveDestinationOp, async ({ principal }) => json(await listDestinations(principal.accountId)));
