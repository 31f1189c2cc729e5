import { createSigningData } from "@/lib/destinations/proof";
import { json, withApi } from "@/lib/http/handler";
import { destinationSigningDataOp } from "@/lib/operations/destinations";

export const dynamic = "force-dynamic";

export const GET = withApi(destinationSigningDataOp, async ({ principal, query }) =>
  json(await createSigningData(principal.accountId, query)),
);
