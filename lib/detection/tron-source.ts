import { hexToTron, isTronAddress, sameAddress } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import { TronGridError, tronGridCall } from "@/lib/chain/trongrid-http";
import type { PaymentEventSource, TransferEvent } from "@/lib/detection/types";
import { type Env, env } from "@/lib/env";
import { log } from "@/lib/log";

export { TronGridError };

/**
 * Tron payment events over a TronGrid-compatible API (docs/spec/provider-notes.md §2): the ERC20FeeProxy's
 * `TransferWithReferenceAndFee` from `GET /v1/contracts/{proxy}/events`, the head from
 * `/wallet/getnowblock`, block hashes and times from `/wallet/getblockbynum`, and the sender
 * of each paying transaction from `/wallet/gettransactionbyid` (KYT screens the payer).
 *
 * The events API filters by block *time* (ms), not number: a block range becomes the time
 * window of its first and last blocks, and events are then kept by block number.
 * Rate limits (429/403, or a node's 200 `{"Error": "... lack of computing resources"}`) are
 * retried a bounded number of times; then a TronGridError is thrown, so the sweep keeps its
 * cursor and tries again on its next run.
 */
export interface TronGridSourceOptions {
  baseUrl: string;
  apiKey?: string;
  fetch?: typeof fetch;
  /** The ERC20FeeProxy, base58. */
  proxyAddress: string;
  confirmations: number;
  creationBlock: bigint;
  initialLookback: bigint;
  timeoutMs?: number;
  /** Retries of a rate-limited or failed call before giving up (default 2). */
  maxRetries?: number;
  /** Reuse the head this long: each sweep step costs calls, and keys have daily quotas (default 15 s, 5 Tron blocks). */
  headTtlMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const EVENT_NAME = "TransferWithReferenceAndFee";
const PAGE_SIZE = 200;
const MAX_PAGES = 100;
const ZERO_HEX = /^(0x|41)?0{40}$/i;
const TRON_ZERO = "T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb";

interface BlockInfo {
  hash: string;
  timestamp: number;
}

interface TronEvent {
  block_number: number;
  block_timestamp: number;
  contract_address: string;
  event_index: number;
  event_name: string;
  result: Record<string, string | undefined>;
  transaction_id: string;
  _unconfirmed?: boolean;
}

interface EventsPage {
  success?: boolean;
  error?: string;
  statusCode?: number;
  data?: TronEvent[];
  meta?: { fingerprint?: string };
}

interface TronBlock {
  blockID?: string;
  block_header?: { raw_data?: { number?: number; timestamp?: number } };
}

export class TronGridEventSource implements PaymentEventSource {
  readonly network = "tron";
  private readonly o: Required<Omit<TronGridSourceOptions, "apiKey">> & { apiKey?: string };
  private readonly blocks = new Map<bigint, BlockInfo | null>();
  private readonly senders = new Map<string, { from: string | null; to: string | null }>();
  private head: { value: bigint; at: number } | null = null;

  constructor(opts: TronGridSourceOptions) {
    this.o = {
      ...opts,
      fetch: opts.fetch ?? fetch,
      timeoutMs: opts.timeoutMs ?? 10_000,
      maxRetries: opts.maxRetries ?? 2,
      headTtlMs: opts.headTtlMs ?? 15_000,
      sleep: opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    };
  }

  async finalizedHead(): Promise<bigint> {
    if (this.head && Date.now() - this.head.at < this.o.headTtlMs) return this.head.value;
    const block = await tronGridCall<TronBlock>(this.o, "GET", "wallet/getnowblock");
    const n = block.block_header?.raw_data?.number;
    if (typeof n !== "number") throw new TronGridError("TronGrid getnowblock answered no block number", false);
    const h = BigInt(n) - BigInt(this.o.confirmations);
    const value = h < 0n ? 0n : h;
    this.head = { value, at: Date.now() };
    return value;
  }

  async startBlock(finalizedHead: bigint): Promise<bigint> {
    const fromLookback = finalizedHead > this.o.initialLookback ? finalizedHead - this.o.initialLookback : 0n;
    return this.o.creationBlock > fromLookback ? this.o.creationBlock : fromLookback;
  }

  async blockHash(n: bigint): Promise<string | null> {
    return (await this.block(n))?.hash ?? null;
  }

  async transfers(fromBlock: bigint, toBlock: bigint): Promise<TransferEvent[]> {
    const [first, last] = await Promise.all([this.block(fromBlock), this.block(toBlock)]);
    if (!first || !last) throw new TronGridError(`TronGrid has no block ${first ? toBlock : fromBlock} yet`, false);
    // Bounds widened by 1 ms: whether TronGrid's bounds are inclusive is not documented.
    const query: Record<string, string> = {
      event_name: EVENT_NAME,
      only_confirmed: "true",
      min_block_timestamp: String(first.timestamp - 1),
      max_block_timestamp: String(last.timestamp + 1),
      order_by: "block_timestamp,asc",
      limit: String(PAGE_SIZE),
    };
    const raw: TronEvent[] = [];
    let fingerprint: string | undefined;
    for (let page = 0; ; page++) {
      if (page >= MAX_PAGES) throw new TronGridError(`more than ${MAX_PAGES * PAGE_SIZE} events in blocks ${fromBlock}–${toBlock}`, false);
      const res = await tronGridCall<EventsPage>(this.o, "GET", `v1/contracts/${this.o.proxyAddress}/events`, {
        query: fingerprint ? { ...query, fingerprint } : query,
      });
      if (!Array.isArray(res.data)) throw new TronGridError("TronGrid events answer has no data array", false);
      raw.push(...res.data);
      fingerprint = res.meta?.fingerprint;
      if (!fingerprint) break;
    }
    const out: TransferEvent[] = [];
    for (const e of raw) {
      const n = BigInt(e.block_number);
      if (n < fromBlock || n > toBlock || e._unconfirmed || e.event_name !== EVENT_NAME) continue;
      if (!sameAddress(toBase58(e.contract_address) ?? "", this.o.proxyAddress)) continue;
      const ev = await this.toTransfer(e, n);
      if (ev) out.push(ev);
    }
    return out;
  }

  /** Reads `result` by argument name: TronGrid repeats each argument by position too. */
  private async toTransfer(e: TronEvent, blockNumber: bigint): Promise<TransferEvent | null> {
    const r = e.result;
    const token = toBase58(r.tokenAddress);
    const to = toBase58(r.to);
    const ref = r.paymentReference?.replace(/^0x/i, "").toLowerCase();
    if (!token || !to || !r.amount || !/^\d+$/.test(r.amount) || !ref || !/^[0-9a-f]{64}$/.test(ref)) {
      log.warn("skipping a malformed Tron event", { txHash: e.transaction_id, eventIndex: e.event_index });
      return null;
    }
    const block = await this.block(blockNumber);
    if (!block) throw new TronGridError(`TronGrid has no block ${blockNumber}`, false);
    const sender = await this.sender(e.transaction_id);
    const fee = r.feeAddress && !ZERO_HEX.test(r.feeAddress) ? toBase58(r.feeAddress) : null;
    return {
      txHash: e.transaction_id,
      logIndex: e.event_index,
      blockNumber,
      blockHash: block.hash,
      blockTime: new Date(e.block_timestamp),
      proxyAddress: toBase58(e.contract_address) ?? this.o.proxyAddress,
      tokenAddress: token,
      to,
      amount: BigInt(r.amount),
      referenceHash: `0x${ref}`,
      feeAmount: r.feeAmount && /^\d+$/.test(r.feeAmount) ? BigInt(r.feeAmount) : 0n,
      feeAddress: fee === TRON_ZERO ? null : fee,
      from: sender.from,
      txTo: sender.to,
    };
  }

  private async block(n: bigint): Promise<BlockInfo | null> {
    if (this.blocks.has(n)) return this.blocks.get(n) ?? null;
    const b = await tronGridCall<TronBlock>(this.o, "POST", "wallet/getblockbynum", { body: { num: Number(n) } });
    const ts = b.block_header?.raw_data?.timestamp;
    // `{}` when the chain has no such block.
    const info = b.blockID && typeof ts === "number" ? { hash: b.blockID, timestamp: ts } : null;
    if (info) {
      if (this.blocks.size > 1000) this.blocks.clear();
      this.blocks.set(n, info);
    }
    return info;
  }

  /** The paying transaction's signer and called contract (owner_address, contract_address). */
  private async sender(txId: string): Promise<{ from: string | null; to: string | null }> {
    const known = this.senders.get(txId);
    if (known) return known;
    const tx = await tronGridCall<{ raw_data?: { contract?: { parameter?: { value?: Record<string, unknown> } }[] } }>(
      this.o,
      "POST",
      "wallet/gettransactionbyid",
      { body: { value: txId, visible: true } },
    );
    const v = tx.raw_data?.contract?.[0]?.parameter?.value ?? {};
    const s = { from: toBase58(v.owner_address), to: toBase58(v.contract_address) };
    if (this.senders.size > 1000) this.senders.clear();
    this.senders.set(txId, s);
    return s;
  }
}

/** Event args are `0x` + 40 hex (no 41), node answers `41…` hex or base58: all become base58. */
function toBase58(value: unknown): string | null {
  if (typeof value !== "string" || !value) return null;
  if (isTronAddress(value)) return value;
  try {
    return hexToTron(value);
  } catch {
    return null;
  }
}

/** The production Tron source when TRON_API_URL is configured; one per configuration, so its caches survive sweeps. */
let cached: { config: Env; source: TronGridEventSource | null } | undefined;

export function tronEventSourceFromEnv(): TronGridEventSource | null {
  const e = env();
  if (cached?.config === e) return cached.source;
  const rt = networkRuntime("tron");
  const source = e.TRON_API_URL
    ? new TronGridEventSource({
        baseUrl: e.TRON_API_URL,
        apiKey: e.TRON_API_KEY,
        proxyAddress: rt.contracts.erc20FeeProxy,
        confirmations: rt.confirmations,
        creationBlock: BigInt(rt.contracts.erc20FeeProxyCreationBlock),
        initialLookback: BigInt(e.DETECTION_INITIAL_LOOKBACK),
      })
    : null;
  cached = { config: e, source };
  return source;
}
