import type { Principal } from "@/lib/auth/principal";
import { sameAddress } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import { now } from "@/lib/clock";
import { findTokenCurrency } from "@/lib/currencies/registry";
import { db } from "@/lib/db";
import { destinationIdOf, toInteropName } from "@/lib/destinations/erc7828";
import { consumeProof } from "@/lib/destinations/proof";
import { AppError, invalidField, notFound } from "@/lib/errors";
import type { PayeeDestination } from "@/lib/generated/prisma/client";
import { parseAddressFor } from "@/lib/payments/terms";

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
  currency: string;
  walletAddress?: string;
  /** Proof of control from GET /v2/payee-destination/signing-data, when not signed in with this wallet. */
  nonce?: string;
  signature?: string;
}

export async function createDestination(principal: Principal, input: CreateDestinationInput) {
  const currency = findTokenCurrency(input.currency);
  if (!currency) throw invalidField("currency", `Unknown currency "${input.currency}"`);
  if (!["USDC", "USDT"].includes(currency.token.symbol)) throw invalidField("currency", "destinations receive USDC or USDT");
  const network = currency.token.network;
  const own = await sessionWallet(principal);
  const raw = input.walletAddress ?? own;
  if (!raw) throw invalidField("walletAddress", "is required when not signed in with a wallet");
  const walletAddress = parseAddressFor(network, raw, "walletAddress");
  const chainId = networkRuntime(network).network.chainId;
  const tokenAddress = currency.token.address;
  // Control of the wallet must be proven: a wallet session proves its own address, a signed
  // nonce proves any EVM address; nothing else registers a wallet (no squatting).
  const ownWallet = own !== null && sameAddress(walletAddress, own);
  if (!ownWallet) {
    if (own && !input.nonce)
      throw new AppError("forbidden", "A wallet session can only register its own address (or sign the signing data)");
    if (!input.nonce || !input.signature) {
      throw new AppError(
        "forbidden",
        "Prove control of this wallet: sign GET /v2/payee-destination/signing-data and send nonce and signature",
      );
    }
    await consumeProof(
      principal.accountId,
      { walletAddress, action: "add", tokenAddress, chainId },
      { nonce: input.nonce, signature: input.signature },
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

export async function getDestinationOrThrow(accountId: string, destinationId: string): Promise<PayeeDestination> {
  const row = await db().payeeDestination.findFirst({ where: { id: destinationId, accountId } });
  if (!row) throw notFound("Destination not found");
  return row;
}

export async function listDestinations(accountId: string) {
  const active = await getActiveDestination(accountId);
  return { destination: active ? withState(active) : null };
}

export async function readDestination(accountId: string, destinationId: string) {
  return withState(await getDestinationOrThrow(accountId, destinationId));
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
