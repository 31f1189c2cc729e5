import { aliasOperation } from "@/lib/http/operation";
import { createClientIdOp, getClientIdOp, listClientIdsOp, revokeClientIdOp, updateClientIdOp } from "@/lib/operations/client-ids";
import {
  createDestinationOp,
  deactivateDestinationOp,
  destinationSigningDataOp,
  getActiveDestinationOp,
  readDestinationOp,
} from "@/lib/operations/destinations";

/**
 * The reference hosts client IDs and payee destinations on its auth service too
 * (`/v1/client-ids`, `/v1/payee-destination`): the same operations at those paths, so a client
 * configured with the auth service's base URL works unchanged.
 */
export const createClientIdV1Op = aliasOperation(createClientIdOp, "/v1/client-ids", "createClientIdV1");
export const listClientIdsV1Op = aliasOperation(listClientIdsOp, "/v1/client-ids", "listClientIdsV1");
export const getClientIdV1Op = aliasOperation(getClientIdOp, "/v1/client-ids/{id}", "getClientIdV1");
export const updateClientIdV1Op = aliasOperation(updateClientIdOp, "/v1/client-ids/{id}", "updateClientIdV1");
export const revokeClientIdV1Op = aliasOperation(revokeClientIdOp, "/v1/client-ids/{id}", "revokeClientIdV1");

export const createDestinationV1Op = aliasOperation(createDestinationOp, "/v1/payee-destination", "createPayeeDestinationV1");
export const getActiveDestinationV1Op = aliasOperation(getActiveDestinationOp, "/v1/payee-destination", "getPayeeDestinationsV1");
export const destinationSigningDataV1Op = aliasOperation(
  destinationSigningDataOp,
  "/v1/payee-destination/signing-data",
  "getPayeeDestinationSigningDataV1",
);
/** The auth service's lookups: the account's active destination for a wallet (a payee's, or a payout recipient's). */
export const lookupDestinationV1Op = aliasOperation(getActiveDestinationOp, "/v1/payee-destination/lookup", "lookupPayeeDestinationV1");
export const payoutLookupDestinationV1Op = aliasOperation(
  getActiveDestinationOp,
  "/v1/payee-destination/payout-lookup",
  "payoutLookupPayeeDestinationV1",
);
export const readDestinationV1Op = aliasOperation(readDestinationOp, "/v1/payee-destination/{destinationId}", "getPayeeDestinationV1");
export const deactivateDestinationV1Op = aliasOperation(
  deactivateDestinationOp,
  "/v1/payee-destination/{destinationId}",
  "deactivatePayeeDestinationV1",
);
