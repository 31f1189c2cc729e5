import type { OutboxEventType } from "@/lib/events/commerce";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";

/**
 * The outbox: an event is written in the same transaction as the change it reports, with its
 * body serialised once, here (a text column keeps the catalog's key order; the fan-out sends
 * these bytes). `dedupeKey` makes writing the same event twice a no-op.
 */
export interface OutboxEventInput {
  accountId: string;
  clientId: string | null;
  type: OutboxEventType;
  dedupeKey: string;
  payload: Record<string, unknown>;
  requestId?: string | null;
}

export async function writeOutboxEvent(tx: Prisma.TransactionClient, event: OutboxEventInput): Promise<void> {
  await tx.outboxEvent.createMany({
    data: [
      {
        id: ulid(),
        accountId: event.accountId,
        clientId: event.clientId,
        type: event.type,
        dedupeKey: event.dedupeKey,
        payload: JSON.stringify(event.payload),
        requestId: event.requestId ?? null,
      },
    ],
    skipDuplicates: true,
  });
}
