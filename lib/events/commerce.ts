import type { EventType } from "@/lib/events/catalog";

/**
 * Commerce payments (lib/commerce, docs/guides/escrow.md): one event per DuebillCommerceEscrow event,
 * to integrators' webhooks. Kept beside EVENT_TYPES rather than in it: that list is also the
 * orchestrator test-delivery enum, which has no samples of these.
 */
export const COMMERCE_EVENT_TYPES = [
  "payment.authorized",
  "payment.captured",
  "payment.voided",
  "payment.reclaimed",
  "payment.capture_refunded",
] as const;

/** What the outbox carries: the catalog's events and the commerce ones. */
export type OutboxEventType = EventType | (typeof COMMERCE_EVENT_TYPES)[number];
