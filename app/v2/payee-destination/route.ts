import { activeDestinationFor, createDestination } from "@/lib/destinations/destinations";
import { json, withApi } from "@/lib/http/handler";
import { createDestinationOp, getActiveDestinationOp } from "@/lib/operations/destinations";

export const dynamic = "force-dynamic";

export const POST = withApi(createDestinationOp, async ({ principal, body }) => json(await createDestination(principal, body), 201));

export const GET = withApi(getActiveDestinationOp, async ({ principal, query }) =>
  json(await activeDestinationFor(principal, query.walletAddress)),
);
