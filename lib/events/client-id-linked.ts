/** client_id.linked, as the reference documents it (docs/spec/reference-notes.md §1.9): sent to orchestrators' webhooks. */
interface ClientIdLinkedFields {
  clientId: string;
  orchestratorId: string;
  linkId: string;
  intentId: string;
  externalId: string;
  destinationId: string;
  destinationWalletAddress: string;
  network: string;
  currency: string;
  timestamp: string;
}

export function clientIdLinkedEvent(f: ClientIdLinkedFields) {
  return {
    event: "client_id.linked" as const,
    clientId: f.clientId,
    orchestratorId: f.orchestratorId,
    linkId: f.linkId,
    intentId: f.intentId,
    externalId: f.externalId,
    destinationId: f.destinationId,
    destinationWalletAddress: f.destinationWalletAddress,
    network: f.network,
    currency: f.currency,
    timestamp: f.timestamp,
  };
}
