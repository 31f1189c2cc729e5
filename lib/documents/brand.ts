import { db } from "@/lib/db";
import { fetchLogo } from "@/lib/documents/logo";
import type { DocumentBrand } from "@/lib/documents/pdf-doc";
import { brandOf } from "@/lib/secure-payments/get-secure-payment";

/**
 * Whose name and logo a document carries, as the hosted page picks them (lib/secure-payments/page-data.ts):
 * the orchestrator's branding snapshot on the link the request was paid through, else the
 * account's name and logoUrl. An account named after its wallet address has no name to show:
 * `fallbackName` (the receipt's signed merchant name) or "Duebill" then.
 */

const ADDRESS_LIKE = /^(0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33})$/;

export async function documentBrand(accountId: string, linkToken: string | null, fallbackName?: string): Promise<DocumentBrand> {
  const [account, link] = await Promise.all([
    db().account.findUnique({ where: { id: accountId }, select: { name: true, logoUrl: true } }),
    linkToken ? db().securePayment.findUnique({ where: { token: linkToken }, select: { branding: true } }) : null,
  ]);
  const branded = link ? brandOf(link) : null;
  if (branded) return { name: branded.displayName, logo: await fetchLogo(branded.logoUrl), accentColor: branded.accentColor };
  const own = account?.name.trim() ?? "";
  const name = own && !ADDRESS_LIKE.test(own) ? own : fallbackName?.trim() || "Duebill";
  return { name, logo: await fetchLogo(account?.logoUrl?.startsWith("https://") ? account.logoUrl : null), accentColor: null };
}
