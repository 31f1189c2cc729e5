-- PUT /v2/client-ids/{id} {status: "inactive"}: an owner pauses a client ID and may reactivate it (revoked stays final).
ALTER TYPE "ClientIdStatus" ADD VALUE 'inactive';
