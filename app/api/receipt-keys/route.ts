import { receiptJwks } from "@/lib/receipts/keys";

export const dynamic = "force-dynamic";

/**
 * The receipt keys (JWKS), served at /.well-known/duebill-receipt-keys.json through a rewrite in
 * next.config.ts (the App Router does not route a dot-folder). Public, any origin, cached briefly:
 * a rotation shows within 5 minutes. 503 when no key can be loaded (production without RECEIPT_SIGNING_KEYS).
 */
export function GET(): Response {
  const headers = { "cache-control": "public, max-age=300", "access-control-allow-origin": "*", "content-type": "application/json" };
  try {
    return new Response(`${JSON.stringify(receiptJwks(), null, 2)}\n`, { headers });
  } catch (err) {
    const message = err instanceof Error ? err.message : "receipt keys unavailable";
    return Response.json({ status: 503, code: "upstream_unavailable", message }, { status: 503, headers: { "cache-control": "no-store" } });
  }
}
