import { createDestinationOp, getActiveDestinationOp } from "@/lib/contracts/destinations";
import { createDestination, listDestinations } from "@/lib/destinations/destinations";
import { json, withApi } from "@/lib/http/handler";

export const dynamic = "force-dynamic";

export const POST = withApi(createDestinationOp, async ({ principal, body }) => json(await createDestination(principal, body), 201));

export const GET = withApi(getActiveDestinationOp, async ({ principal }) => json(await listDestinations(principal.accountId)));
