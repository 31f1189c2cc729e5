import type { Principal } from "@/lib/auth/principal";
import { isEvmAddress, isTronAddress, parseAddressFor, sameAddress } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { assertClientMayRegister } from "@/lib/destinations/client-authority";
import { destinationIdOf, toInteropName } from "@/lib/destinations/erc7828";
import { consumeProof, proofTarget } from "@/lib/destinations/proof";
import { receivingCurrency, receivingCurrencyAt } from "@/lib/destinations/receiving";
import { AppError, invalidField, notFound } from "@/lib/errors";
import type { PayeeDestination } from "@/lib/generated/prisma/client";

/**
 * Payee destinations: where an account receives. One active destination per account: a new
 * one replaces the previous (which stays readable, inactive). Receiving currencies are USDC
 * and USDT (USDT0 is a payment alias only).
 */
export interface DestinationDto {
  destinationId?: string;
  payeeAddress: string;
  tokenAddress: string;
  walletAddress: string;
  network: string;
  isMasked?: boolean;
}

export function toDestinationDto(
  d: Pick<PayeeDestination, "id" | "walletAddress" | "chainId" | "tokenAddress" | "network">,
): DestinationDto {
  return {
    destinationId: d.id,
    payeeAddress: toInteropName(d.walletAddress, d.chainId),
    tokenAddress: d.tokenAddress,
    walletAddress: d.walletAddress,
    network: d.network,
    isMasked: false,
  };
}

function withState(d: PayeeDestination) {
  return { ...toDestinationDto(d), currency: `${d.tokenSymbol}-${d.network}`, active: d.active, createdAt: d.createdAt.toISOString() };
}

async function sessionWallet(principal: Principal): Promise<string | null> {
  if (principal.kind !== "session") return null;
  const user = await db().user.findUnique({ where: { id: principal.userId }, select: { walletAddress: true } });
  return user?.walletAddress ?? null;
}

export interface CreateDestinationInput {
  /** USDC or USDT currency ID; defaults to the token and chain of the signing data. */
  currency?: string;
  walletAddress?: string;
  /** Optional echoes of the signing data (the reference's body names them): they must match it. */
  tokenAddress?: string;
  chainId?: number;
  /** Proof of control from GET /v2/payee-destination/signing-data (always needed with a client ID). */
  nonce?: string;
  signature?: string;
}

type Proof = { nonce: string; signature: string };

/**
 * The proof a request carries: none (a session may rely on its own wallet), or nonce and
 * signature together. A client ID has no wallet session: it always needs both (400 naming the missing one).
 */
function proofOf(principal: Principal, input: { nonce?: string; signature?: string }): Proof | null {
  const { nonce, signature } = input;
  if (nonce === undefined && signature === undefined && principal.kind === "session") return null;
  const why = "is required with a client ID or with a signature: sign GET /v2/payee-destination/signing-data with the wallet";
  if (nonce === undefined) throw invalidField("nonce", why);
  if (signature === undefined)
    throw invalidField("signature", "is required with nonce: the wallet's EIP-712 signature of the signing data");
  return { nonce, signature };
}

export async function createDestination(principal: Principal, input: CreateDestinationInput) {
  const proof = proofOf(principal, input);
  const signed = proof ? await proofTarget(principal.accountId, proof.nonce, "add") : null;
  if (!input.currency && !signed) throw invalidField("currency", "is required (or send the nonce and signature of the signing data)");
  const currency = input.currency ? receivingCurrency(input.currency) : receivingCurrencyAt(signed!.chainId, signed!.tokenAddress, "nonce");
  const network = currency.token.network;
  const chainId = networkRuntime(network).network.chainId;
  const tokenAddress = currency.token.address;
  if (input.tokenAddress !== undefined && !sameAddress(input.tokenAddress, tokenAddress))
    throw invalidField("tokenAddress", `is not the address of ${currency.id} (${tokenAddress})`);
  if (input.chainId !== undefined && input.chainId !== chainId)
    throw invalidField("chainId", `is not the chain of ${currency.id} (${chainId})`);
  const own = await sessionWallet(principal);
  const raw = input.walletAddress ?? signed?.walletAddress ?? own;
  if (!raw) throw invalidField("walletAddress", "is required when not signed in with a wallet");
  const walletAddress = parseAddressFor(network, raw, "walletAddress");
  // Control of the wallet must be proven: a wallet session proves its own address, a signed
  // nonce proves any EVM address; nothing else registers a wallet (no squatting). A proof that
  // is sent is always checked.
  if (proof) {
    await consumeProof(principal.accountId, { walletAddress, action: "add", tokenAddress, chainId }, proof);
  } else if (own === null || !sameAddress(walletAddress, own)) {
    throw new AppError(
      "forbidden",
      own
        ? "A wallet session can only register its own address (or sign the signing data)"
        : "Prove control of this wallet: sign GET /v2/payee-destination/signing-data and send nonce and signature",
    );
  }
  const id = destinationIdOf(walletAddress, chainId, tokenAddress);
  const taken = () => new AppError("conflict", "This destination belongs to another account");
  try {
    const row = await db().$transaction(async (tx) => {
      // Ownership is decided inside the transaction, before anything changes: another
      // account's destination is never touched, and the account's own stay as they were.
      const existing = await tx.payeeDestination.findUnique({ where: { id }, select: { accountId: true } });
      if (existing && existing.accountId !== principal.accountId) throw taken();
      // A client ID only names the account: the account must already trust this wallet.
      if (principal.kind === "clientId") await assertClientMayRegister(tx, principal, walletAddress, id);
      await tx.payeeDestination.updateMany({
        where: { accountId: principal.accountId, active: true, NOT: { id } },
        data: { active: false, deactivatedAt: now() },
      });
      if (existing)
        return tx.payeeDestination.update({ where: { id, accountId: principal.accountId }, data: { active: true, deactivatedAt: null } });
      return tx.payeeDestination.create({
        data: { id, accountId: principal.accountId, walletAddress, network, chainId, tokenAddress, tokenSymbol: currency.token.symbol },
      });
    });
    return withState(row);
  } catch (err) {
    // A concurrent registration of the same wallet (another account's create, or a second
    // active destination of this account against the one-active index) lost the race.
    if ((err as { code?: string }).code === "P2002") throw taken();
    throw err;
  }
}

export async function getActiveDestination(accountId: string): Promise<PayeeDestination | null> {
  return db().payeeDestination.findFirst({ where: { accountId, active: true }, orderBy: { createdAt: "desc" } });
}

/** The account's latest destinations, the active one and those it replaced (the dashboard's settings). */
export function listDestinations(accountId: string, take = 10): Promise<PayeeDestination[]> {
  return db().payeeDestination.findMany({ where: { accountId }, orderBy: { createdAt: "desc" }, take });
}

export async function getDestinationOrThrow(accountId: string, destinationId: string): Promise<PayeeDestination> {
  const row = await db().payeeDestination.findFirst({ where: { id: destinationId, accountId } });
  if (!row) throw notFound("Destination not found");
  return row;
}

/**
 * The account's active destination, or null (the reference's GET /v2/payee-destination). Filtered
 * by `walletAddress`: null unless the active destination is that wallet's. A client ID must name
 * the wallet (the reference requires it), so a public client ID does not reveal where the account
 * receives to someone who does not know the wallet already.
 */
export async function activeDestinationFor(principal: Principal, walletAddress?: string) {
  if (walletAddress === undefined && principal.kind !== "session") throw invalidField("walletAddress", "is required with a client ID");
  if (walletAddress !== undefined && !isEvmAddress(walletAddress.toLowerCase()) && !isTronAddress(walletAddress))
    throw invalidField("walletAddress", "must be an EVM (0x…) or Tron (T…) address");
  const active = await getActiveDestination(principal.accountId);
  if (!active || (walletAddress !== undefined && !sameAddress(active.walletAddress, walletAddress))) return null;
  return withState(active);
}

export async function readDestination(accountId: string, destinationId: string) {
  return withState(await getDestinationOrThrow(accountId, destinationId));
}

/**
 * DELETE /v2/payee-destination/{destinationId}: a client ID proves control of the destination's
 * wallet with the signed `deactivate` signing data (nonce and signature, as the reference's body);
 * a session needs none (today's rule), though a proof it sends is checked. Another account's
 * destination is 404 before anything else.
 */
export async function deactivateDestinationAs(principal: Principal, destinationId: string, input: { nonce?: string; signature?: string }) {
  const row = await getDestinationOrThrow(principal.accountId, destinationId);
  const proof = proofOf(principal, input);
  if (proof) {
    if (!isEvmAddress(row.walletAddress))
      throw invalidField("destinationId", "a Tron destination is deactivated from a session (sign in with the wallet)");
    const target = {
      walletAddress: row.walletAddress,
      action: "deactivate" as const,
      tokenAddress: row.tokenAddress,
      chainId: row.chainId,
    };
    await consumeProof(principal.accountId, target, proof);
  }
  return deactivateDestination(principal.accountId, row.id);
}

export async function deactivateDestination(accountId: string, destinationId: string) {
  const row = await getDestinationOrThrow(accountId, destinationId);
  const updated = await db().payeeDestination.update({
    where: { id: row.id },
    data: { active: false, deactivatedAt: row.deactivatedAt ?? now() },
  });
  await db().clientId.updateMany({ where: { accountId, boundDestinationId: row.id }, data: { boundDestinationId: null } });
  return withState(updated);
}

/** Binds a client ID to one of the account's destinations (its links then pay there). */
export async function bindClientIdDestination(accountId: string, clientId: string, destinationId: string | null) {
  const client = await db().clientId.findFirst({ where: { id: clientId, accountId } });
  if (!client) throw notFound("Client ID not found");
  if (destinationId) await getDestinationOrThrow(accountId, destinationId);
  await db().clientId.update({ where: { id: client.id }, data: { boundDestinationId: destinationId } });
  return { clientId: client.id, boundDestinationId: destinationId };
}
