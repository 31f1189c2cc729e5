import { networkRuntime } from "@/lib/chain/config";
import { isNetworkId, NETWORKS, type NetworkId } from "@/lib/chain/networks";
import { AppError } from "@/lib/errors";

/** Reading back what the database stores about a payment: its network, token and explorer link. */
export function networkOf(row: { network: string }): NetworkId {
  if (!isNetworkId(row.network)) throw new AppError("internal_error", `Stored request has unknown network ${row.network}`);
  return row.network;
}

export function tokenOf(row: { network: string; paymentCurrency: string }) {
  const symbol = row.paymentCurrency.slice(0, row.paymentCurrency.lastIndexOf("-"));
  const token = networkRuntime(networkOf(row)).tokens.find((t) => t.symbol === symbol);
  if (!token) throw new AppError("internal_error", `Stored request has unknown currency ${row.paymentCurrency}`);
  return token;
}

export function explorerUrl(network: string, txHash: string): string {
  return isNetworkId(network) ? `${NETWORKS[network].explorerTxUrl}${txHash}` : txHash;
}
