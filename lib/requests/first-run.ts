import { db } from "@/lib/db";

/**
 * The overview's first-run checklist: the four things a new merchant does before its first
 * payment, each read from the account's own rows. "Done" means it happened once (a revoked key or
 * a deleted endpoint still counts: the merchant knows how), except the destination, which must be
 * active now (without one, payment links cannot be created).
 */
export interface FirstRunChecklist {
  destination: boolean;
  link: boolean;
  webhook: boolean;
  apiKey: boolean;
  /** Not a step of its own: a webhook needs a client ID, so the webhook step leads to Keys until one exists. */
  clientId: boolean;
}

export async function firstRunChecklist(accountId: string): Promise<FirstRunChecklist> {
  const [destination, link, webhook, apiKey, clientId] = await Promise.all([
    db().payeeDestination.findFirst({ where: { accountId, active: true }, select: { id: true } }),
    db().securePayment.findFirst({ where: { accountId }, select: { token: true } }),
    db().webhookEndpoint.findFirst({ where: { accountId }, select: { id: true } }),
    db().apiKey.findFirst({ where: { accountId }, select: { id: true } }),
    db().clientId.findFirst({ where: { accountId, status: "active" }, select: { id: true } }),
  ]);
  return {
    destination: destination !== null,
    link: link !== null,
    webhook: webhook !== null,
    apiKey: apiKey !== null,
    clientId: clientId !== null,
  };
}
