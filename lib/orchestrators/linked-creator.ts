import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { activeLinkOf } from "@/lib/orchestrators/links";

/** Branding shown on the hosted page of a link made for a linked client ID. */
export interface BrandingSnapshot {
  /** The branding row it was taken from (the reference's `branding.id`). */
  id: string;
  displayName: string;
  logoUrl: string | null;
  accentColor: string | null;
  supportUrl: string | null;
}

export interface LinkCreator {
  /** Who owns the link and its requests: the linked client ID (its account), or the caller itself. */
  principal: Principal;
  /** Set when an orchestrator creates the link for its linked client ID. */
  orchestrated: { orchestratorId: string; clientId: string; boundDestinationId: string; branding: BrandingSnapshot | null } | null;
}

/**
 * Secure-payment creation rules for linked client IDs (interface "Secure payments"): a linked
 * client ID alone cannot create a link (403); with `x-orchestrator-key` + `x-client-id` the client
 * ID must be active, actively linked to that key's orchestrator and bound to an active
 * destination. The link is then the client ID's (its account, its webhooks) and carries the
 * orchestrator's ID, fees and branding.
 */
export async function resolveLinkCreator(principal: Principal, clientIdHeader: string | null): Promise<LinkCreator> {
  if (principal.kind === "clientId") {
    if (await activeLinkOf(principal.clientId))
      throw new AppError(
        "forbidden",
        "This client ID is linked to an orchestrator: payment links need the orchestrator's x-orchestrator-key as well",
      );
    return { principal, orchestrated: null };
  }
  if (principal.kind !== "orchestratorKey" || !clientIdHeader) return { principal, orchestrated: null };
  const client = await db().clientId.findUnique({
    where: { id: clientIdHeader },
    include: { link: true, boundDestination: true },
  });
  if (client?.link?.status !== "active" || client.link.orchestratorAccountId !== principal.accountId)
    throw new AppError("forbidden", "x-client-id is not linked to this orchestrator");
  if (client.status !== "active") throw new AppError("client_id_inactive", `Client ID is ${client.status}`);
  if (!client.boundDestination?.active)
    throw new AppError("forbidden", "The linked client ID has no active bound destination: the platform must finish onboarding");
  const brandings = await db().branding.findMany({
    where: { accountId: principal.accountId, OR: [{ clientId: client.id }, { clientId: null }] },
  });
  const brand = brandings.find((b) => b.clientId === client.id) ?? brandings.find((b) => b.clientId === null);
  return {
    principal: { kind: "clientId", accountId: client.accountId, clientId: client.id, rateTier: client.rateTier, browser: false },
    orchestrated: {
      orchestratorId: principal.accountId,
      clientId: client.id,
      boundDestinationId: client.boundDestination.id,
      branding: brand
        ? {
            id: brand.id,
            displayName: brand.displayName,
            logoUrl: brand.logoUrl,
            accentColor: brand.accentColor,
            supportUrl: brand.supportUrl,
          }
        : null,
    },
  };
}
