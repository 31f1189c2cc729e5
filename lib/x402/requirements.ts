import { getAddress } from "viem";
import { networkRuntime } from "@/lib/chain/config";
import { isNetworkId, NETWORK_IDS, type NetworkId } from "@/lib/chain/networks";
import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { depositAmount, ensureDepositAddress } from "@/lib/deposits/deposit-address";
import { depositUnavailableReason } from "@/lib/deposits/relayer";
import { AppError } from "@/lib/errors";
import type { DepositAddress, PaymentRequest } from "@/lib/generated/prisma/client";
import { feeLegsOf } from "@/lib/payments/fee-legs";
import { authorizationDomain, relayerUnavailableReason, tokenAt } from "@/lib/relayer";
import { caip2, type PaymentRequirements } from "@/lib/x402/wire";

/** How long a client's authorization may stay valid (its validBefore − now): the spec's maxTimeoutSeconds. */
export const MAX_TIMEOUT_SECONDS = 300;
/** A plain request (no link, so no expiry) gets a deposit address that takes payments this long. */
const PLAIN_REQUEST_DEPOSIT_DAYS = 30;

/**
 * Why x402 cannot pay `request`; null when it can. x402's `exact` scheme on EVM is an EIP-3009
 * transferWithAuthorization to `payTo`, submitted by Duebill's signature relayer: the token must
 * implement EIP-3009 (USDC does, USDT does not), and `payTo` is the request's deposit address
 * (lib/deposits), which forwards the whole amount through the ERC20FeeProxy with the request's
 * reference and its fee, so detection records it like any payment.
 */
export function x402UnavailableReason(request: PaymentRequest): string | null {
  if (!isNetworkId(request.network)) return "Unknown network";
  const rt = networkRuntime(request.network);
  if (rt.network.kind !== "evm") return `x402 is not available on ${rt.network.name}: it pays with EIP-3009 authorizations of EVM tokens`;
  if (request.kind !== "request") return "A payout is paid from the payer's wallet, not over x402";
  if (request.isConversion) return "A conversion request's token amount is set when it is paid: pay it with a wallet, not over x402";
  const token = tokenAt(request.network, request.tokenAddress);
  if (!token?.authorizations?.eip3009)
    return `${token?.symbol ?? "This token"} on ${rt.network.name} has no EIP-3009 (transferWithAuthorization): x402 cannot pay it`;
  if (request.status === "paid") return "This request is already paid";
  // The deposit address forwards the whole fee to one fee address, and only a fee that is complete.
  if (feeLegsOf(request).length > 1) return "This request's fee goes to several addresses: pay it with a wallet, not over x402";
  if (request.subStatus === "fee_short") return "A payment came without its fee: pay the missing fee with a wallet";
  return depositUnavailableReason(request.network) ?? relayerUnavailableReason(request.network);
}

/** The link a request belongs to, for its expiry (when its deposit address stops taking payments). */
async function closesAtOf(request: PaymentRequest): Promise<Date> {
  const link = await db().securePaymentRequest.findUnique({ where: { requestId: request.id }, include: { securePayment: true } });
  return link?.securePayment.expiresAt ?? new Date(nowMs() + PLAIN_REQUEST_DEPOSIT_DAYS * 86_400_000);
}

/** The x402 `accepts[]` entry of a request whose deposit address exists: what a client signs. */
export async function requirementsOf(request: PaymentRequest, deposit: DepositAddress): Promise<PaymentRequirements> {
  const network = request.network as NetworkId;
  const domain = await authorizationDomain(network, request.tokenAddress).catch(() => null);
  if (!domain || !deposit.address)
    throw new AppError("upstream_unavailable", "The token's EIP-712 domain cannot be read now; try again shortly");
  return {
    scheme: "exact",
    network: caip2(domain.chainId),
    asset: getAddress(request.tokenAddress),
    // The request's full due amount, its fee included (what the deposit address forwards: payee and fee leg).
    amount: depositAmount(request).toString(),
    payTo: getAddress(deposit.address),
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: { name: domain.name, version: domain.version },
  };
}

/**
 * The requirements of a request's 402 answer: its deposit address is made on first use (the same one
 * the hosted page's "pay by transfer" shows). 409 naming the reason when x402 cannot pay it.
 */
export async function ensureRequirements(request: PaymentRequest): Promise<PaymentRequirements> {
  const why = x402UnavailableReason(request);
  if (why) throw new AppError("conflict", why);
  // A settled x402 payment is forwarded by the deposit sweep and recorded by detection shortly: not a second one.
  const settled = await db().relayedTransaction.findFirst({ where: { purpose: "x402", subjectId: request.id, status: { not: "failed" } } });
  if (settled) throw new AppError("conflict", "An x402 payment of this request was settled; it is recorded as paid shortly");
  const deposit = await ensureDepositAddress(request, await closesAtOf(request));
  assertOpen(deposit);
  return requirementsOf(request, deposit);
}

/** A Duebill deposit address sends back what arrives after it closes: no authorization may land then. */
export function assertOpen(deposit: DepositAddress): void {
  if (deposit.closesAt && deposit.closesAt.getTime() < nowMs() + MAX_TIMEOUT_SECONDS * 1000)
    throw new AppError("conflict", "This request's deposit address has closed (its link expired): x402 cannot pay it");
}

/** The network of a CAIP-2 chain ID among the configured EVM networks. */
export function networkOfChainId(chainId: number): NetworkId | null {
  return NETWORK_IDS.find((id) => networkRuntime(id).network.kind === "evm" && networkRuntime(id).network.chainId === chainId) ?? null;
}

/** The request whose deposit address is `payTo` on `network` (the facilitator settles only to Duebill requests). */
export async function requestOfPayTo(
  network: NetworkId,
  payTo: string,
): Promise<{ request: PaymentRequest; deposit: DepositAddress } | null> {
  const deposit = await db().depositAddress.findUnique({
    where: { network_address: { network, address: getAddress(payTo) } },
    include: { request: true },
  });
  if (!deposit) return null;
  const { request, ...row } = deposit;
  return { request, deposit: row };
}
