import { type Resolver, systemResolver } from "@/lib/webhooks/http-post";

/**
 * The DNS resolver webhook URLs are checked with, at registration and at delivery. Tests
 * inject one (no traffic leaves loopback); production uses the system's.
 */
let current: Resolver = systemResolver;

export function webhookResolver(): Resolver {
  return current;
}

export function setWebhookResolverForTests(resolver: Resolver | null): void {
  current = resolver ?? systemResolver;
}
