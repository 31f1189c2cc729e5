import type { Network } from "@/lib/chain/networks";

/** An RPC on this machine: the devnet (scripts/devnet), whose transactions no public explorer has. */
export const LOCAL_RPC = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/;

/**
 * The one rule for explorer links (pay page, dashboard): the transaction-page prefix of a network,
 * or null when no explorer knows its transactions. A prefix set in the chain configuration
 * (`explorerTxUrl`, null for none) wins; otherwise the committed explorer (lib/chain/networks.ts)
 * only while the network is the public chain it names: a local RPC or another chain ID (the devnet's
 * 31337) is a chain of its own, and a public explorer would show someone else's transaction or none.
 */
export function explorerTxPrefix(n: {
  committed: Pick<Network, "chainId" | "explorerTxUrl">;
  chainId: number;
  rpcUrl: string | null;
  configured?: string | null;
}): string | null {
  if (n.configured !== undefined) return n.configured;
  if (n.chainId !== n.committed.chainId) return null;
  if (n.rpcUrl && LOCAL_RPC.test(n.rpcUrl)) return null;
  return n.committed.explorerTxUrl;
}
