import { randomBytes } from "node:crypto";
import { recordAudit } from "@/lib/audit";
import { normaliseAllowedDomains } from "@/lib/auth/origins";
import { hashSecret } from "@/lib/auth/secrets";
import { addressKey } from "@/lib/chain/address";
import type { NetworkId } from "@/lib/chain/networks";
import { isWatchedNetwork, watchedNetworkNames } from "@/lib/chain/watched";
import { now, nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { getActiveDestination } from "@/lib/destinations/destinations";
import { env } from "@/lib/env";
import { AppError, invalidField, notFound } from "@/lib/errors";
import { clientIdLinkedEvent } from "@/lib/events/catalog";
import { writeOutboxEvent } from "@/lib/events/outbox";
import type { LinkIntent, Prisma } from "@/lib/generated/prisma/client";
import { idPrefix, prefixedId, ulid } from "@/lib/ids";
import { isAvailableKytProvider, type KytPlan, notAvailableKytProvider } from "@/lib/kyt/plan";

/**
 * Link intents (interface "Link intent"): an orchestrator invites a platform to its hosted
 * onboarding (`{app_url}/onboarding?token=…`). Single use, expires two days after creation. The
 * token in the URL is the capability; only its sha256 is stored.
 */
export const LINK_INTENT_TTL_MS = 2 * 86_400_000;

export interface CreateLinkIntentInput {
  clientIdName: string;
  domains?: string[];
  externalId?: string;
  kyt?: KytPlan;
}

export function toLinkIntentDto(i: Pick<LinkIntent, "id" | "clientIdName" | "externalId" | "usedAt" | "expiresAt">) {
  return {
    id: i.id,
    clientIdName: i.clientIdName,
    externalId: i.externalId,
    used: i.usedAt !== null,
    expiresAt: i.expiresAt.toISOString(),
  };
}

const onboardingUrl = (token: string) => `${env().APP_URL.replace(/\/$/, "")}/onboarding?token=${token}`;

/** POST /v2/orchestrators/client-id-link-intents. */
export async function createLinkIntent(orchestratorId: string, body: CreateLinkIntentInput) {
  const name = body.clientIdName.trim();
  if (!name) throw invalidField("clientIdName", "must not be blank");
  const domains = normaliseAllowedDomains(body.domains ?? []);
  if ("error" in domains) throw invalidField("domains", domains.error);
  if (body.kyt) {
    if (body.kyt.providers.length === 0)
      throw invalidField("kyt.providers", "must name one or two providers (omit kyt to let the platform choose)");
    const names = body.kyt.providers.map((p) => p.provider);
    if (new Set(names).size !== names.length) throw invalidField("kyt.providers", "each provider may be listed once");
    // Only screening this deployment can run: a plan naming another vendor would promise screening that never happens.
    names.forEach((name, i) => {
      if (!isAvailableKytProvider(name)) throw invalidField(`kyt.providers.${i}.provider`, notAvailableKytProvider(name));
    });
  }
  const token = randomBytes(32).toString("base64url");
  const intent = await db().linkIntent.create({
    data: {
      id: ulid(),
      orchestratorAccountId: orchestratorId,
      tokenHash: hashSecret(token),
      clientIdName: name,
      domains: domains.domains,
      externalId: body.externalId ?? null,
      kyt: (body.kyt ?? undefined) as Prisma.InputJsonValue | undefined,
      expiresAt: new Date(nowMs() + LINK_INTENT_TTL_MS),
    },
  });
  return { url: onboardingUrl(token), intent: toLinkIntentDto(intent) };
}

export type LinkIntentState = "open" | "used" | "expired";

/** The intent behind an onboarding token, as the hosted page shows it (null: unknown token). */
export async function linkIntentByToken(token: string) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const intent = await db().linkIntent.findUnique({
    where: { tokenHash: hashSecret(token) },
    include: { orchestrator: { select: { id: true, name: true, brandings: { where: { clientId: null } } } } },
  });
  if (!intent) return null;
  const state: LinkIntentState = intent.usedAt ? "used" : intent.expiresAt.getTime() <= nowMs() ? "expired" : "open";
  const brand = intent.orchestrator.brandings[0];
  return {
    state,
    intent: toLinkIntentDto(intent),
    domains: intent.domains,
    kyt: (intent.kyt as KytPlan | null) ?? null,
    orchestrator: {
      id: intent.orchestrator.id,
      name: brand?.displayName ?? intent.orchestrator.name,
      logoUrl: brand?.logoUrl ?? null,
      accentColor: brand?.accentColor ?? null,
      supportUrl: brand?.supportUrl ?? null,
    },
    createdClientId: intent.createdClientId,
  };
}

/**
 * Finishing onboarding, as the platform signed in with its wallet (`accountId`): in one
 * transaction the intent is claimed (a conditional update: a double click, a second tab or a
 * replay finds it used and gets the same client ID back), a client ID is created with the
 * intent's domains, linked to the orchestrator and bound to the platform's active destination,
 * and client_id.linked is written to the outbox for the orchestrator's webhooks.
 */
export async function completeLinkIntent(token: string, accountId: string, kytChoice?: string, actor = `account:${accountId}`) {
  const view = await linkIntentByToken(token);
  if (!view) throw notFound("Onboarding link not found");
  if (view.state === "used") {
    const existing = view.createdClientId ? await db().clientId.findUnique({ where: { id: view.createdClientId } }) : null;
    if (existing && existing.accountId === accountId) return { clientId: existing.id, alreadyCompleted: true };
    throw new AppError("conflict", "This onboarding link has already been used");
  }
  if (view.state === "expired") throw new AppError("conflict", "This onboarding link has expired; ask for a new one");
  if (view.orchestrator.id === accountId) throw new AppError("forbidden", "An orchestrator cannot onboard itself");
  const destination = await getActiveDestination(accountId);
  if (!destination) throw invalidField("destination", "register a payout destination (network and currency) first");
  // Payments on a network this deployment does not watch would never be detected (the page offers none).
  if (!isWatchedNetwork(destination.network as NetworkId))
    throw invalidField(
      "destination",
      `${destination.tokenSymbol} on ${destination.network} is not a network this service watches (${watchedNetworkNames()}): set a payout destination on one of those`,
    );
  if (view.kyt === null && kytChoice !== undefined && !isAvailableKytProvider(kytChoice))
    throw invalidField("kyt", notAvailableKytProvider(kytChoice));

  const clientId = prefixedId(idPrefix.clientId);
  const linkId = ulid();
  const done = await db().$transaction(async (tx) => {
    const claimed = await tx.linkIntent.updateMany({
      where: { id: view.intent.id, usedAt: null, expiresAt: { gt: now() } },
      data: {
        usedAt: now(),
        createdClientId: clientId,
        ...(view.kyt === null && kytChoice ? { kyt: { providers: [{ provider: kytChoice }] } } : {}),
      },
    });
    if (claimed.count !== 1) return false;
    await tx.clientId.create({
      data: { id: clientId, accountId, name: view.intent.clientIdName, allowedDomains: view.domains, boundDestinationId: destination.id },
    });
    await tx.clientIdLink.create({
      data: { id: linkId, clientId, orchestratorAccountId: view.orchestrator.id, status: "active", intentId: view.intent.id },
    });
    await recordAudit(
      {
        actor,
        action: "client_id.orchestrator_link",
        target: clientId,
        accountId,
        details: { linkId, orchestratorId: view.orchestrator.id, via: "onboarding", intentId: view.intent.id },
      },
      tx,
    );
    await writeOutboxEvent(tx, {
      accountId: view.orchestrator.id,
      clientId: null,
      type: "client_id.linked",
      dedupeKey: `client_id.linked:${linkId}`,
      payload: clientIdLinkedEvent({
        clientId,
        orchestratorId: view.orchestrator.id,
        linkId,
        intentId: view.intent.id,
        externalId: view.intent.externalId ?? "",
        destinationId: destination.id,
        // The network's own form: EVM hex lowercased, Tron Base58 as is (Base58 is case-sensitive).
        destinationWalletAddress: addressKey(destination.walletAddress),
        network: destination.network,
        currency: destination.tokenSymbol,
        timestamp: now().toISOString(),
      }),
    });
    return true;
  });
  // Lost the race to a concurrent completion: answer as the winner did (same account) or 409.
  if (!done) return completeLinkIntent(token, accountId, kytChoice, actor);
  return { clientId, alreadyCompleted: false };
}
