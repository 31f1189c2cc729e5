import type { Principal } from "@/lib/auth/principal";
import { sameAddress } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import { findTokenCurrency } from "@/lib/currencies/registry";
import { db } from "@/lib/db";
import { destinationIdOf, toInteropName } from "@/lib/destinations/erc7828";
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

export function toDestinationDto(d: Pick<PayeeDestination, "id" | "walletAddress" | "chainId" | "tokenAddress" | "network">): DestinationDto {
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

export async function createDestination(principal: Principal, input: { currency: string; walletAddress?: string }) {
  const currency = findTokenCurrency(input.currency);
  if (!currency) throw invalidField("currency", `Unknown currency "${input.currency}"`);
  if (!["USDC", "USDT"].includes(currency.token.symbol)) throw invalidField("currency", "destinations receive USDC or USDT");
  const network = currency.token.network;
  const own = await sessionWallet(principal);
  const raw = input.walletAddress ?? own;
  if (!raw) throw invalidField("walletAddress", "is required when not signed in with a wallet");
  const walletAddress = parseAddressFor(network, raw, "walletAddress");
  // A wallet session proves control of one address: it may only register that one.
  if (own && input.walletAddress && !sameAddress(walletAddress, own)) {
    throw new AppError("forbidden", "A wallet session can only register its own address");
  }
  const chainId = networkRuntime(network).network.chainId;
  const tokenAddress = currency.token.address;
  const id = destinationIdOf(walletAddress, chainId, tokenAddress);
  const row = await db().$transaction(async (tx) => {
    await tx.payeeDestination.updateMany({
      where: { accountId: principal.accountId, active: true, NOT: { id } },
      data: { active: false, deactivatedAt: new Date() },
    });
    return tx.payeeDestination.upsert({
      where: { id },
      create: { id, accountId: principal.accountId, walletAddress, network, chainId, tokenAddress, tokenSymbol: currency.token.symbol },
      update: { active: true, deactivatedAt: null },
    });
  });
  if (row.accountId !== principal.accountId) throw new AppError("conflict", "This destination belongs to another account");
  return withState(row);
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
  const updated = await db().payeeDestination.update({ where: { id: row.id }, data: { active: false, deactivatedAt: row.deactivatedAt ?? new Date() } });
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
