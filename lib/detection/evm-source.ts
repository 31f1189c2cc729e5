import { BlockNotFoundError, getAddress, type PublicClient } from "viem";
import { erc20FeeProxyAbi } from "@/lib/chain/abis";
import { asEvmAddress } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import type { PaymentEventSource, TransferEvent } from "@/lib/detection/types";
import { env } from "@/lib/env";

const transferEvent = erc20FeeProxyAbi.find((x) => x.type === "event" && x.name === "TransferWithReferenceAndFee");

/**
 * EVM source over JSON-RPC eth_getLogs. The conversion proxy delegatecalls the fee proxy,
 * so the same event is emitted from both addresses: both are watched.
 */
export function evmEventSource(network: NetworkId, client: PublicClient | null = publicClientFor(network)): PaymentEventSource | null {
  if (!client || !transferEvent) return null;
  const rt = networkRuntime(network);
  const addresses = [rt.contracts.erc20FeeProxy, rt.contracts.erc20ConversionProxy].filter((a): a is string => !!a).map(asEvmAddress);
  // Keyed by block hash: a restarted devnet reuses block numbers with other times.
  const blockTimes = new Map<string, Date>();
  const senders = new Map<string, { from: string; to: string | null }>();

  return {
    network,
    async finalizedHead() {
      const head = await client.getBlockNumber({ cacheTime: 0 });
      const h = head - BigInt(rt.confirmations);
      return h < 0n ? 0n : h;
    },
    async startBlock(finalizedHead) {
      const lookback = BigInt(env().DETECTION_INITIAL_LOOKBACK);
      const created = BigInt(rt.contracts.erc20FeeProxyCreationBlock);
      const fromLookback = finalizedHead > lookback ? finalizedHead - lookback : 0n;
      return created > fromLookback ? created : fromLookback;
    },
    async blockHash(n) {
      try {
        return (await client.getBlock({ blockNumber: n })).hash;
      } catch (err) {
        if (err instanceof BlockNotFoundError) return null;
        throw err;
      }
    },
    async transfers(fromBlock, toBlock) {
      const logs = await client.getLogs({ address: addresses, event: transferEvent, fromBlock, toBlock });
      const out: TransferEvent[] = [];
      for (const log of logs) {
        if (log.removed || log.blockNumber === null || log.transactionHash === null || log.logIndex === null || !log.blockHash) continue;
        const a = log.args;
        if (!a.tokenAddress || !a.to || a.amount === undefined || !a.paymentReference) continue;
        let blockTime = blockTimes.get(log.blockHash);
        if (!blockTime) {
          const block = await client.getBlock({ blockHash: log.blockHash });
          blockTime = new Date(Number(block.timestamp) * 1000);
          if (blockTimes.size > 1000) blockTimes.clear();
          blockTimes.set(log.blockHash, blockTime);
        }
        let sender = senders.get(log.transactionHash);
        if (!sender) {
          const tx = await client.getTransaction({ hash: log.transactionHash });
          sender = { from: getAddress(tx.from), to: tx.to ? getAddress(tx.to) : null };
          if (senders.size > 1000) senders.clear();
          senders.set(log.transactionHash, sender);
        }
        out.push({
          txHash: log.transactionHash,
          logIndex: log.logIndex,
          blockNumber: log.blockNumber,
          blockHash: log.blockHash,
          blockTime,
          proxyAddress: log.address,
          tokenAddress: a.tokenAddress,
          to: a.to,
          amount: a.amount,
          referenceHash: a.paymentReference,
          feeAmount: a.feeAmount ?? 0n,
          feeAddress: a.feeAddress && !/^0x0{40}$/i.test(a.feeAddress) ? a.feeAddress : null,
          from: sender.from,
          txTo: sender.to,
        });
      }
      return out;
    },
  };
}
