import { concat, encodeFunctionData, encodePacked, type Hex, size } from "viem";
import { asHex, parseAddressFor, sameAddress } from "@/lib/chain/address";
import type { UnsignedTx } from "@/lib/chain/calldata";
import { NETWORKS, type NetworkId } from "@/lib/chain/networks";
import { now } from "@/lib/clock";
import { findTokenCurrency } from "@/lib/currencies/registry";
import { db } from "@/lib/db";
import { AppError, invalidField, notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { AccessPolicy } from "@/lib/kyt/screen";
import { ROUTE_CHAIN_LABEL } from "@/lib/routing/route-id";
import { type LoadedLink, loadLink } from "@/lib/secure-payments/page-data";
import { planLinkPayment } from "@/lib/secure-payments/pay-link";
import { referenceBranding } from "@/lib/secure-payments/public-view";
import { recordSubmission } from "@/lib/secure-payments/submission";

/**
 * Safe (multisig) payers of secure payment links — the reference's Safe flow:
 * 1. `GET /{token}/pay?wallet=<safe>&isSafe=true`: the same transactions as any payer's plan (approvals,
 *    the fee-proxy or batch payment, fee legs), read for the Safe (its allowance and balance, no gas
 *    check: an owner or relayer pays the gas), each marked `operation: 0` (CALL), as the Safe's
 *    MetaTransactionData; `metadata.multiSendData` packs them into one `multiSend(bytes)` call, which
 *    the Safe runs by DELEGATECALL (operation 1) into its chain's MultiSendCallOnly, as Safe clients
 *    do with a list of calls. `metadata.safePaymentDeadline`: the link's expiry (Unix seconds).
 * 2. `POST /{token}/intent {safeTxHash, chain, token, safePaymentDeadline?, payerAddress?}` records the Safe
 *    transaction the owners are signing (SafePaymentIntent, one per link; a new hash replaces it).
 * 3. Until the Safe executes it, `GET /{token}` and `GET /{token}/pay` answer 423 "Secure payment is in
 *    progress" with `requestStatuses[]`; the Safe named in the intent may still ask for its own plan.
 *    At `safePaymentDeadline` (default: the link's expiry) the wait ends and the link is payable again.
 * 4. Detection settles the link as for any payer (the chain is the truth: the hash settles nothing); the
 *    transaction that pays was sent to the Safe, so the payer recorded is the Safe (safePayerOf).
 * EVM only: a Tron link → 400.
 */

/** Safe operations: CALL for each planned transaction; DELEGATECALL for the multiSend wrapper. */
const CALL = 0;
const MULTI_SEND_ABI = [
  {
    type: "function",
    name: "multiSend",
    stateMutability: "payable",
    inputs: [{ name: "transactions", type: "bytes" }],
    outputs: [],
  },
] as const;

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

function weiOf(v: unknown): bigint {
  if (typeof v === "object" && v !== null && "hex" in v) return BigInt((v as { hex: string }).hex);
  if (typeof v === "string" || typeof v === "number" || typeof v === "bigint") return BigInt(v);
  return 0n;
}

/** `multiSend(bytes)` calldata: each call packed as operation (uint8) | to | value (uint256) | data length (uint256) | data. */
export function multiSendDataOf(transactions: readonly (Pick<UnsignedTx, "to" | "data"> & { value: unknown })[]): Hex {
  const packed = concat(
    transactions.map((t) =>
      encodePacked(["uint8", "address", "uint256", "uint256", "bytes"], [CALL, asHex(t.to), weiOf(t.value), BigInt(size(t.data)), t.data]),
    ),
  );
  return encodeFunctionData({ abi: MULTI_SEND_ABI, functionName: "multiSend", args: [packed] });
}

function assertEvm(network: string, field: string): asserts network is NetworkId {
  const n = NETWORKS[network as NetworkId];
  if (n?.kind !== "evm") throw invalidField(field, "Safe payments are EVM only: a Tron link is paid from a Tron wallet");
}

/** The link's pending Safe transaction, or null (none, past its deadline, or the link is no longer pending). */
async function pendingIntent(token: string) {
  const intent = await db().safePaymentIntent.findUnique({ where: { token } });
  if (!intent || intent.deadline.getTime() <= now().getTime()) return null;
  const link = await loadLink(token);
  if (link?.status !== "pending" || link.requests.every((r) => r.status === "paid")) return null;
  return { intent, link };
}

/**
 * 423 while the link's Safe transaction awaits its owners (the reference's body: message, status,
 * branding, requestStatuses). `safe`: the caller's wallet, when it is the Safe the intent named
 * (it may still read its own plan).
 */
export async function assertNoSafePaymentInProgress(token: string, safe?: string): Promise<void> {
  const pending = await pendingIntent(token);
  if (!pending) return;
  const { intent, link } = pending;
  if (safe && intent.safeAddress && sameAddress(safe, intent.safeAddress)) return;
  throw new AppError("payment_in_progress", "Secure payment is in progress", {
    extra: {
      status: "pending",
      branding: referenceBranding(link.sp),
      requestStatuses: link.requests.map((r) => ({
        requestId: r.id,
        hasBeenPaid: r.status === "paid",
        safeTxHash: intent.safeTxHash,
        chainId: intent.chainId,
        safePaymentDeadline: unix(intent.deadline),
      })),
    },
  });
}

/** GET /{token}/pay?isSafe=true: the link's plan read for the Safe, each call marked for the Safe, and their multiSend. */
export async function planSafePayment(token: string, wallet: string) {
  const link = await loadLink(token);
  if (!link) throw notFound("Secure payment not found");
  assertEvm(link.sp.network, "isSafe");
  await assertNoSafePaymentInProgress(token, wallet);
  const answer = await planLinkPayment(token, wallet);
  const { hasEnoughGas: _gasIsTheExecutors, ...metadata } = answer.metadata as typeof answer.metadata & { hasEnoughGas?: boolean };
  return {
    ...answer,
    transactions: answer.transactions.map((t) => ({ ...t, operation: CALL })),
    metadata: {
      ...metadata,
      isSafe: true as const,
      safePaymentDeadline: unix(link.sp.expiresAt),
      multiSendData: multiSendDataOf(answer.transactions),
    },
  };
}

export interface SafeIntentInput {
  safeTxHash: string;
  txHash?: string;
  chain?: string;
  token?: string;
  /** Unix seconds (the reference) or an ISO 8601 date-time. */
  safePaymentDeadline?: number | string;
  payerAddress?: string;
}

/** `chain` names the link's network: its reference label (BASE, POLYGON, BNB, …), its network id or its chain ID. */
function sameChain(network: NetworkId, chain: string): boolean {
  const c = chain.trim().toUpperCase();
  const names = [
    ROUTE_CHAIN_LABEL[network],
    network.toUpperCase(),
    String(NETWORKS[network].chainId),
    ...(network === "bsc" ? ["BNB"] : []),
  ];
  return names.includes(c);
}

function deadlineOf(input: number | string | undefined, expiresAt: Date): Date {
  if (input === undefined) return expiresAt;
  const at = typeof input === "number" ? new Date(input * 1000) : new Date(input);
  if (Number.isNaN(at.getTime())) throw invalidField("safePaymentDeadline", "must be Unix seconds or an ISO 8601 date-time");
  if (at.getTime() <= now().getTime()) throw invalidField("safePaymentDeadline", "must be in the future");
  if (at.getTime() > expiresAt.getTime())
    throw invalidField("safePaymentDeadline", `must not be after the link expires (${expiresAt.toISOString()})`);
  return at;
}

/**
 * POST /{token}/intent with `safeTxHash`: records the Safe transaction the owners are signing. `chain`
 * and `token` must be the link's; `payerAddress` names the Safe (required when the link restricts its
 * payers, which then must include it). Idempotent: the same body again changes nothing.
 */
export async function recordSafeIntent(token: string, input: SafeIntentInput) {
  const link = await loadLink(token);
  if (!link) throw notFound("Secure payment not found");
  const network = link.sp.network;
  assertEvm(network, "safeTxHash");
  if (link.status !== "pending") throw new AppError("conflict", `This payment link is ${link.status.replace("_", " ")}`);
  if (!input.chain) throw invalidField("chain", `required with safeTxHash: the link's chain (${ROUTE_CHAIN_LABEL[network]})`);
  if (!sameChain(network, input.chain)) throw invalidField("chain", `must be the link's chain (${ROUTE_CHAIN_LABEL[network]})`);
  const symbol = link.sp.currency ? findTokenCurrency(link.sp.currency)?.token.symbol : undefined;
  if (!input.token) throw invalidField("token", `required with safeTxHash: the link's token (${symbol ?? link.sp.currency})`);
  if (![symbol?.toUpperCase(), link.sp.currency?.toUpperCase()].includes(input.token.toUpperCase()))
    throw invalidField("token", `must be the link's token (${symbol ?? link.sp.currency})`);
  const deadline = deadlineOf(input.safePaymentDeadline, link.sp.expiresAt);
  const safeAddress = input.payerAddress ? parseAddressFor(network, input.payerAddress, "payerAddress") : null;
  assertAllowedPayer(link, safeAddress);
  const safeTxHash = input.safeTxHash.toLowerCase();
  const data = { safeTxHash, safeAddress, chainId: NETWORKS[network].chainId, deadline };
  await db().safePaymentIntent.upsert({ where: { token }, create: { token, ...data }, update: data });
  // An executed Safe transaction's own hash, when the client sends it too: the link shows as processing.
  if (input.txHash) await recordSubmission(token, { txHash: input.txHash, payerAddress: safeAddress ?? undefined });
  const request = link.requests[0];
  return {
    intentId: `${token}:${safeTxHash.slice(0, 18)}`,
    paymentReference: request?.paymentReference ?? "",
    safeTxHash,
    safePaymentDeadline: unix(deadline),
    isListening: true,
    ...(safeAddress ? { payerAddress: safeAddress } : {}),
  };
}

/** A link that names its payers (allowedPayerAddresses) is held by a Safe only when it names that Safe. */
function assertAllowedPayer(link: LoadedLink, safe: string | null): void {
  const allowed = ((link.sp.accessPolicy as AccessPolicy | null) ?? null)?.allowedPayerAddresses ?? [];
  if (link.sp.direction !== "incoming" || allowed.length === 0) return;
  if (!safe) throw invalidField("payerAddress", "required: this link accepts named payers only (the Safe's address)");
  if (!allowed.some((a) => sameAddress(a, safe))) throw new AppError("forbidden", "This wallet is not allowed to pay this link");
}

/**
 * Detection: the payer of a payment to a Safe-paid link. The transaction was sent to the Safe (an
 * owner or relayer called execTransaction), which made the calls itself: the payer is the Safe named in
 * the link's intent when the transaction went to it; undefined otherwise (the sender paid).
 */
export async function safePayerOf(
  tx: Prisma.TransactionClient,
  requestId: string,
  ev: { txTo?: string | null; proxyAddress: string },
): Promise<string | undefined> {
  const txTo = ev.txTo;
  // A wallet that called the proxy itself paid itself: no read needed.
  if (!txTo || sameAddress(txTo, ev.proxyAddress)) return undefined;
  const safeIntent = { select: { safeAddress: true } } as const;
  const link = await tx.securePaymentRequest.findUnique({
    where: { requestId },
    // A multicall child is paid by its parent's transaction: the parent's intent names the Safe.
    select: { securePayment: { select: { safeIntent, multicallParents: { select: { parent: { select: { safeIntent } } } } } } },
  });
  if (!link) return undefined;
  const named = [link.securePayment.safeIntent, ...link.securePayment.multicallParents.map((m) => m.parent.safeIntent)];
  return named.map((i) => i?.safeAddress).find((safe): safe is string => !!safe && sameAddress(safe, txTo));
}
