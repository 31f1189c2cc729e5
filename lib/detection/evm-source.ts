import { BlockNotFoundError, getAddress, type PublicClient } from "viem";
import { erc20ConversionProxyAbi, erc20FeeProxyAbi } from "@/lib/chain/abis";
import { asEvmAddress } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import { convert, readConversionRate, USD_HASH } from "@/lib/chain/conversion";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { payerAccountOf, type TokenTransfer, tokenTransfersOf } from "@/lib/detection/payer-account";
import type { ConversionDetail, PaymentEventSource, TransferEvent } from "@/lib/detection/types";
import { env } from "@/lib/env";
import { log as logger } from "@/lib/log";

const transferEvent = erc20FeeProxyAbi.find((x) => x.type === "event" && x.name === "TransferWithReferenceAndFee");
/** Block and receipt reads of one range sent at once (per batch). */
const PREFETCH_CONCURRENCY = 16;
const conversionEvent = erc20ConversionProxyAbi.find((x) => x.type === "event" && x.name === "TransferWithConversionAndReference");

/**
 * EVM source over JSON-RPC eth_getLogs. The conversion proxy delegatecalls the fee proxy,
 * so the same event is emitted from both addresses: both are watched. The conversion proxy also
 * emits TransferWithConversionAndReference (the invoice-currency amount) right after the fee-proxy
 * event of the same payment: it is attached to that transfer as `conversion`.
 */
export function evmEventSource(network: NetworkId, client: PublicClient | null = publicClientFor(network)): PaymentEventSource | null {
  if (!client || !transferEvent || !conversionEvent) return null;
  const rt = networkRuntime(network);
  const conversionProxy = rt.contracts.erc20ConversionProxy ? asEvmAddress(rt.contracts.erc20ConversionProxy) : null;
  const addresses = [rt.contracts.erc20FeeProxy, rt.contracts.erc20ConversionProxy].filter((a): a is string => !!a).map(asEvmAddress);
  // Keyed by block hash: a restarted devnet reuses block numbers with other times.
  const blockTimes = new Map<string, Date>();
  const senders = new Map<string, { from: string; to: string | null; transfers: TokenTransfer[] }>();

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
      const prefetch = async (
        ls: readonly { blockHash: `0x${string}` | null; transactionHash: `0x${string}` | null; removed: boolean }[],
      ) => {
        const live = ls.filter((l) => !l.removed);
        const blocks = [...new Set(live.map((l) => l.blockHash).filter((h): h is `0x${string}` => !!h && !blockTimes.has(h)))];
        const txs = [...new Set(live.map((l) => l.transactionHash).filter((h): h is `0x${string}` => !!h && !senders.has(h)))];
        if (blockTimes.size + blocks.length > 1000) blockTimes.clear();
        if (senders.size + txs.length > 1000) senders.clear();
        const reads = [
          ...blocks.map((blockHash) => async () => {
            const block = await client.getBlock({ blockHash });
            blockTimes.set(blockHash, new Date(Number(block.timestamp) * 1000));
          }),
          ...txs.map((hash) => async () => {
            // The receipt: its sender, and its token Transfers (which account the tokens came from: a smart account's payer).
            const tx = await client.getTransactionReceipt({ hash });
            senders.set(hash, { from: getAddress(tx.from), to: tx.to ? getAddress(tx.to) : null, transfers: tokenTransfersOf(tx.logs) });
          }),
        ];
        // At most PREFETCH_CONCURRENCY requests in flight: a busy range does not flood the RPC.
        for (let i = 0; i < reads.length; i += PREFETCH_CONCURRENCY)
          await Promise.all(reads.slice(i, i + PREFETCH_CONCURRENCY).map((read) => read()));
      };
      // Both event kinds at once, then every new block's time and transaction's receipt at once (one round trip each, not in turn).
      const [logs, conversions] = await Promise.all([
        client.getLogs({ address: addresses, event: transferEvent, fromBlock, toBlock }),
        conversionProxy ? client.getLogs({ address: conversionProxy, event: conversionEvent, fromBlock, toBlock }) : [],
      ]);
      /** The conversion event of a fee-proxy log: the next conversion log of the same transaction, emitter and reference. */
      const conversionOf = async (l: (typeof logs)[number]): Promise<ConversionDetail | undefined> => {
        if (!conversionProxy || l.address.toLowerCase() !== conversionProxy.toLowerCase()) return undefined;
        const c = conversions
          .filter(
            (x) =>
              !x.removed &&
              x.transactionHash === l.transactionHash &&
              x.logIndex !== null &&
              l.logIndex !== null &&
              x.logIndex > l.logIndex &&
              x.args.paymentReference === l.args.paymentReference,
          )
          .sort((x, y) => (x.logIndex ?? 0) - (y.logIndex ?? 0))[0];
        if (!c || c.args.amount === undefined || !c.args.currency) return undefined;
        const currency = c.args.currency.toLowerCase();
        let amountInUsd: bigint | null = currency === USD_HASH ? c.args.amount : null;
        if (amountInUsd === null && l.blockNumber !== null) {
          // The invoice currency's USD value at the payment's block (ChainlinkConversionPath [currency, USD]).
          amountInUsd = await readConversionRate(network, [currency, USD_HASH], l.blockNumber)
            .then((r) => convert(c.args.amount ?? 0n, r))
            .catch((err: unknown) => {
              logger.warn("no USD rate for a conversion payment", {
                network,
                currency,
                error: err instanceof Error ? err.message : String(err),
              });
              return null;
            });
        }
        return {
          requestAmount: c.args.amount,
          feeAmount: c.args.feeAmount ?? 0n,
          currency,
          maxRateTimespan: c.args.maxRateTimespan ?? 0n,
          amountInUsd,
        };
      };
      await prefetch(logs);
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
          // The receipt: its sender, and its token Transfers (which account the tokens came from: a smart account's payer).
          const tx = await client.getTransactionReceipt({ hash: log.transactionHash });
          sender = { from: getAddress(tx.from), to: tx.to ? getAddress(tx.to) : null, transfers: tokenTransfersOf(tx.logs) };
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
          payerAccount: payerAccountOf(rt, sender, { token: a.tokenAddress, to: a.to, amount: a.amount, logIndex: log.logIndex }),
          conversion: await conversionOf(log),
        });
      }
      return out;
    },
  };
}
