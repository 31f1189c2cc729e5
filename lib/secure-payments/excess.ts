import { isNetworkId } from "@/lib/chain/networks";
import { db } from "@/lib/db";
import { depositReturnsAvailable, depositUnavailableReason } from "@/lib/deposits/relayer";
import type { ExcessPolicy, PaymentRequest, SecurePayment } from "@/lib/generated/prisma/client";
import { feeLegsOf } from "@/lib/payments/fee-legs";
import { effectivePolicy, policyOf } from "@/lib/refunds/policy";

/** Why a link cannot be paid by a plain transfer to a deposit address, or null when it can (the page offers it only then). */
export function linkDepositUnavailable(
  link: { network: string; paymentType: string; direction: string },
  requests: readonly (Parameters<typeof feeLegsOf>[0] & { subStatus: string | null })[] = [],
): string | null {
  if (link.direction !== "incoming") return "A payout link is paid from the creator's wallet";
  if (link.paymentType !== "single") return "A link of several payments is paid with a wallet";
  // A deposit address forwards through the fee proxy with one fee address: a fee to several is paid with a wallet.
  if (requests.some((r) => feeLegsOf(r).length > 1)) return "This link's fee goes to several addresses: pay it with a wallet";
  // The address forwards the whole fee with what it receives: a fee that came short is paid with a wallet (the exact amount).
  if (requests.some((r) => r.subStatus === "fee_short")) return "A payment came without its fee: pay the missing fee with a wallet";
  return isNetworkId(link.network) ? depositUnavailableReason(link.network) : "Unknown network";
}

/**
 * The wrong-amount policy of a link (lib/refunds/policy.ts): `policy`, its own or its account's, and
 * `effective`, what applies — `return` reads `offer` unless the link takes deposits to an address of
 * Duebill's own contract (a batch or payout link, a network without DuebillDepositFactory, or an address
 * made earlier with Request Network's proxy cannot return).
 */
export async function linkExcessPolicy(
  sp: Pick<SecurePayment, "excessPolicy" | "network" | "paymentType" | "direction">,
  accountPolicy: ExcessPolicy,
  requests: readonly PaymentRequest[],
): Promise<{ policy: ExcessPolicy; effective: ExcessPolicy }> {
  const policy = policyOf(sp.excessPolicy, accountPolicy);
  if (policy !== "return") return { policy, effective: policy };
  let canReturn = linkDepositUnavailable(sp, requests) === null && depositReturnsAvailable(sp.network);
  if (canReturn && requests[0]) {
    const made = await db().depositAddress.findUnique({ where: { requestId: requests[0].id }, select: { contract: true } });
    canReturn = made?.contract !== "request_network";
  }
  return { policy, effective: effectivePolicy(policy, canReturn) };
}
