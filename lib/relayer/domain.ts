import { erc20Abi, getAddress, type Hex } from "viem";
import { networkRuntime } from "@/lib/chain/config";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import type { Token, TokenAuthorizations } from "@/lib/chain/tokens";

export interface AuthorizationDomain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: Hex;
}

/** The network's token at `address` (case-insensitive), if it is one Duebill knows. */
export function tokenAt(network: NetworkId, address: string): Token | undefined {
  const lower = address.toLowerCase();
  return networkRuntime(network).tokens.find((t) => t.address.toLowerCase() === lower);
}

/** What the token accepts (chain data, lib/chain/tokens.ts); null: neither EIP-3009 nor EIP-2612. */
export function tokenAuthorizations(network: NetworkId, address: string): TokenAuthorizations | null {
  return tokenAt(network, address)?.authorizations ?? null;
}

const names = new Map<string, string>();

/**
 * The token's EIP-712 domain for its authorizations: name() read from the token (once per process; a
 * devnet's token is named differently from the network's real one), the version from the chain data.
 * Null when the token has no EIP-3009/2612 support or the network no RPC.
 */
export async function authorizationDomain(network: NetworkId, address: string): Promise<AuthorizationDomain | null> {
  const auth = tokenAuthorizations(network, address);
  const client = publicClientFor(network);
  if (!auth || !client) return null;
  const rt = networkRuntime(network);
  const verifyingContract = getAddress(address);
  const key = `${network}:${rt.rpcUrl}:${verifyingContract}`;
  let name = names.get(key);
  if (name === undefined) {
    name = await client.readContract({ address: verifyingContract, abi: erc20Abi, functionName: "name" });
    names.set(key, name);
  }
  return { name, version: auth.domainVersion, chainId: rt.network.chainId, verifyingContract };
}

/** EIP-3009's typed-data types (Circle's FiatToken v2; the names and order are the type hashes'). */
export const EIP3009_TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
  ReceiveWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
  CancelAuthorization: [
    { name: "authorizer", type: "address" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

/** EIP-2612's Permit type. */
export const EIP2612_TYPES = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const;
