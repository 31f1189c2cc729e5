import { deactivateDestinationAs } from "@/lib/destinations/destinations";
import { json, withApi } from "@/lib/http/handler";
import { deactivateDestinationByBodyV1Op } from "@/lib/operations/destinations";

export const dynamic = "force-dynamic";

/** The reference's auth-service route: the destination named in the body. */
export const POST = withApi(deactivateDestinationByBodyV1Op, async ({ principal, body }) => {
  const { destinationId, ...proof } = body;
  return json(await deactivateDestinationAs(principal, destinationId, proof));
});
