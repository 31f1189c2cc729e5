import { networkRuntime } from "@/lib/chain/config";
import { NETWORK_IDS } from "@/lib/chain/networks";
import { depositUnavailableReason } from "@/lib/deposits/relayer";
import { relayerUnavailableReason, signatureRelayer } from "@/lib/relayer";
import { caip2, X402_VERSION } from "@/lib/x402/wire";

export interface SupportedResponse {
  kinds: { x402Version: number; scheme: string; network: string }[];
  extensions: string[];
  signers: Record<string, string[]>;
}

/**
 * GET /supported: `exact` on every EVM network where Duebill can settle now (an RPC, the signature
 * relayer, deposit addresses, and a token with EIP-3009 in the chain data); the relayer is the signer
 * that submits the transfers.
 */
export function supportedKinds(): SupportedResponse {
  const kinds = NETWORK_IDS.filter((id) => {
    const rt = networkRuntime(id);
    if (relayerUnavailableReason(id) || depositUnavailableReason(id)) return false;
    return rt.tokens.some((t) => t.authorizations?.eip3009);
  }).map((id) => ({ x402Version: X402_VERSION, scheme: "exact", network: caip2(networkRuntime(id).network.chainId) }));
  const relayer = signatureRelayer();
  return { kinds, extensions: [], signers: relayer && kinds.length > 0 ? { "eip155:*": [relayer.address] } : {} };
}
