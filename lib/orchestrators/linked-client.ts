import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";

/**
 * A client ID the orchestrator may name in its setup (per-client fee configs and branding):
 * one linked to it right now (ClientIdLink active, orchestratorAccountId = the orchestrator).
 * `includeUnlinked` also accepts a client ID it linked once and unlinked since, so reads of
 * what was configured for it keep working. Anything else, another orchestrator's client IDs
 * included, is 404, like a client ID that does not exist.
 */
export async function assertLinkedClient(
  orchestratorId: string,
  clientId: string,
  opts: { includeUnlinked?: boolean } = {},
): Promise<string> {
  const link = await db().clientIdLink.findFirst({
    where: { clientId, orchestratorAccountId: orchestratorId, ...(opts.includeUnlinked ? {} : { status: "active" as const }) },
    select: { clientId: true },
  });
  if (!link) throw notFound("Client ID not linked to this orchestrator");
  return link.clientId;
}
