import { type Address, getAddress } from "viem";
import { networkRuntime } from "@/lib/chain/config";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { AppError, invalidField } from "@/lib/errors";
import { signatureRelayer } from "@/lib/relayer";

/** The network's DuebillCommerceEscrow, or a 400 naming the request when none is configured there. */
export function escrowAddressOf(network: NetworkId): Address {
  const address = networkRuntime(network).contracts.commerceEscrow;
  if (!address) throw invalidField("requestId", `No commerce escrow is deployed on ${network} (contracts:deploy --contract escrow)`);
  return getAddress(address);
}

export function chainClient(network: NetworkId) {
  const client = publicClientFor(network);
  if (!client) throw new AppError("upstream_unavailable", `No RPC is configured for ${network}`);
  return client;
}

/**
 * The chain's latest block (time in seconds, number): deadlines are the contract's block.timestamp
 * rules, so they are checked against the chain's clock, not the server's (the devnet's can be moved).
 */
export async function chainHead(network: NetworkId): Promise<{ time: number; number: bigint }> {
  const block = await chainClient(network).getBlock({ blockTag: "latest" });
  return { time: Number(block.timestamp), number: block.number };
}

export function relayerAddress(): Address | null {
  return signatureRelayer()?.address ?? null;
}

/** Whether the network has an RPC to read the escrow from (without one, reads answer what is stored). */
export const canReadChain = (network: NetworkId) => publicClientFor(network) !== null;
