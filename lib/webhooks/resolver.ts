import { type Resolver, systemResolver } from "@/lib/webhooks/http-post";

/**
 * The DNS resolver webhook URLs are checked with, at registration and at delivery: the
 * system's. The seam for tests is this module (vi.mock) or the `resolve` option of deliverDue;
 * the product has no test setter.
 */
export function webhookResolver(): Resolver {
  return systemResolver;
}
