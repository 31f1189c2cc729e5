import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  type PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { recurringPaymentsAbi } from "@/contracts/generated/abis.generated";
import { asEvmAddress, asHex } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import type { ChainSchedule, FailureReason, ReceiptStatus, RecurringChain, SimulationResult } from "@/lib/recurring/chain";
import { type SchedulePermit, scheduleKey } from "@/lib/recurring/permit";
import { GAS_PER_CANCEL, GAS_PER_TRIGGER, relayerAccount } from "@/lib/recurring/relayer";
import { permitOf, scheduleReferences } from "@/lib/recurring/stored";

const recurringAbi = recurringPaymentsAbi;

/** The contract's custom errors, as the executor's reason codes. */
const REVERTS: Record<string, FailureReason> = {
  SignatureExpired: "deadline_passed",
  ScheduleIsCancelled: "cancelled_on_chain",
  NotDueYet: "not_due",
  AlreadyPaid: "already_paid",
  ERC20InsufficientBalance: "insufficient_balance",
  ERC20InsufficientAllowance: "insufficient_allowance",
};

function revertReason(err: unknown): { reason: FailureReason; message: string } {
  if (err instanceof BaseError) {
    const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError) {
      const name = reverted.data?.errorName ?? reverted.reason ?? "reverted";
      const text = `${name} ${reverted.reason ?? ""}`;
      if (/exceeds balance/i.test(text)) return { reason: "insufficient_balance", message: name };
      if (/allowance/i.test(text)) return { reason: "insufficient_allowance", message: name };
      return { reason: REVERTS[name] ?? "unknown", message: name };
    }
    if (/insufficient funds for gas/i.test(err.message)) return { reason: "relayer_out_of_gas", message: "insufficient funds for gas" };
    return { reason: "unknown", message: err.shortMessage };
  }
  return { reason: "unknown", message: err instanceof Error ? err.message.split("\n")[0]! : "unknown error" };
}

/** A nonce reserved in this process is trusted for this long; after that the chain's pending count decides (gaps close). */
const RESERVATION_MS = 30_000;

/**
 * The executor's chain on an EVM network: reads the contract's state, dry-runs triggerPayment as
 * the relayer (after checking the payer's balance and allowance, so the reason is exact), and
 * sends it from the relayer with an explicit nonce. The relayer only pays gas: triggerPayment
 * moves tokens from the payer to the payee through ERC20FeeProxy.
 */
export class EvmRecurringChain implements RecurringChain {
  readonly network: NetworkId;
  private readonly client: PublicClient;
  private readonly account: PrivateKeyAccount;
  private readonly contract: Address;
  private readonly permits = new Map<string, SchedulePermit>();
  private reserved = { next: -1, at: 0 };

  constructor(network: NetworkId, client: PublicClient, account: PrivateKeyAccount, contract: Address) {
    this.network = network;
    this.client = client;
    this.account = account;
    this.contract = contract;
  }

  get relayer(): Address {
    return this.account.address;
  }

  private async permit(s: ChainSchedule): Promise<SchedulePermit> {
    let p = this.permits.get(s.id);
    if (!p) {
      p = permitOf(s, await scheduleReferences(s.id));
      if (this.permits.size > 10_000) this.permits.clear();
      this.permits.set(s.id, p);
    }
    return p;
  }

  private key(s: ChainSchedule): Hex {
    return scheduleKey(asEvmAddress(s.payer), asHex(s.scheduleId));
  }

  private read<T>(functionName: "lastPaidIndex" | "isPaid" | "isCancelled", args: readonly unknown[]): Promise<T> {
    return this.client.readContract({ address: this.contract, abi: recurringAbi, functionName, args } as never) as Promise<T>;
  }

  async latestBlockTime(): Promise<number> {
    return Number((await this.client.getBlock({ blockTag: "latest" })).timestamp);
  }
  async isPaid(s: ChainSchedule, index: number): Promise<boolean> {
    return this.read<boolean>("isPaid", [this.key(s), index]);
  }
  async lastPaidIndex(s: ChainSchedule): Promise<number> {
    return Number(await this.read<number>("lastPaidIndex", [this.key(s)]));
  }
  async isCancelled(s: ChainSchedule): Promise<boolean> {
    return this.read<boolean>("isCancelled", [this.key(s)]);
  }

  private async call(s: ChainSchedule, index: number) {
    if (!s.permitSignature) throw new Error(`schedule ${s.id} has no signature`);
    return {
      address: this.contract,
      abi: recurringAbi,
      functionName: "triggerPayment" as const,
      args: [await this.permit(s), asHex(s.permitSignature), index] as const,
      account: this.account,
    };
  }

  async simulate(s: ChainSchedule, index: number): Promise<SimulationResult> {
    const p = await this.permit(s);
    const cost = p.amount + p.feeAmount + p.relayerFee;
    const [balance, allowance, gas, gasPrice] = await Promise.all([
      this.client.readContract({ address: p.token, abi: erc20Abi, functionName: "balanceOf", args: [p.subscriber] }),
      this.client.readContract({ address: p.token, abi: erc20Abi, functionName: "allowance", args: [p.subscriber, this.contract] }),
      this.client.getBalance({ address: this.account.address }),
      this.client.getGasPrice(),
    ]);
    if (balance < cost)
      return { ok: false, reason: "insufficient_balance", message: `balance ${balance} < ${cost}`, missing: cost - balance };
    if (allowance < cost)
      return { ok: false, reason: "insufficient_allowance", message: `allowance ${allowance} < ${cost}`, missing: cost - allowance };
    if (gas < GAS_PER_TRIGGER * gasPrice) return { ok: false, reason: "relayer_out_of_gas", message: `relayer ${this.account.address}` };
    try {
      await this.client.simulateContract(await this.call(s, index));
      return { ok: true };
    } catch (err) {
      return { ok: false, ...revertReason(err) };
    }
  }

  async send(s: ChainSchedule, index: number, nonce: number, replaces?: string): Promise<string> {
    return this.wallet().writeContract({
      ...(await this.call(s, index)),
      chain: await this.chainDefinition(),
      nonce,
      gas: GAS_PER_TRIGGER,
      ...(await this.fees(replaces)),
    } as never);
  }

  async cancel(s: ChainSchedule, nonce: number, opts: { replaces?: string; outbid?: boolean } = {}): Promise<string> {
    return this.wallet().writeContract({
      address: this.contract,
      abi: recurringAbi,
      functionName: "cancelSchedule",
      args: [await this.permit(s)],
      account: this.account,
      chain: await this.chainDefinition(),
      nonce,
      gas: GAS_PER_CANCEL,
      ...(await this.fees(opts.replaces, opts.outbid ?? opts.replaces !== undefined)),
    } as never);
  }

  private wallet() {
    return createWalletClient({ account: this.account, transport: http(networkRuntime(this.network).rpcUrl!) });
  }

  /**
   * Fees for a send: today's estimate; for a replacement, at least 25 % over the stuck
   * transaction's own fees (nodes refuse a replacement that does not outbid it) and 2× today's.
   */
  private async fees(replaces?: string, bump = replaces !== undefined) {
    const fees = await this.client.estimateFeesPerGas().catch(() => null);
    const old = replaces ? await this.client.getTransaction({ hash: asHex(replaces) }).catch(() => null) : null;
    const outbid = (now: bigint, before: bigint | undefined) => {
      if (!bump) return now;
      const bumped = before === undefined ? 0n : (before * 125n) / 100n + 1n;
      return now * 2n > bumped ? now * 2n : bumped;
    };
    if (fees?.maxFeePerGas)
      return {
        maxFeePerGas: outbid(fees.maxFeePerGas, old?.maxFeePerGas ?? old?.gasPrice ?? undefined),
        maxPriorityFeePerGas: outbid(fees.maxPriorityFeePerGas ?? 0n, old?.maxPriorityFeePerGas ?? undefined),
      };
    return { gasPrice: outbid(await this.client.getGasPrice(), old?.gasPrice ?? undefined) };
  }

  /**
   * A relayer nonce that was handed out but never broadcast (a sweep lost its lease after
   * reserving it, or its send failed and the schedule paused) leaves a gap: every later
   * transaction waits behind it in the node's queue. `stuckAbove` is the lowest nonce the
   * executor sent (of `sentNonces`: sends older than a grace period) that is still unmined. When it
   * lies above the chain's pending count, the gap is filled with a 0-value transfer to the relayer
   * itself (whatever payment was meant for that nonce is re-sent with a new one: the executor sees
   * the nonce used and the index unpaid). Returns the nonce filled, or null.
   */
  async withdraw(nonce: number, replaces?: string): Promise<string> {
    return this.wallet().sendTransaction({
      account: this.account,
      chain: await this.chainDefinition(),
      to: this.account.address,
      value: 0n,
      nonce,
      gas: 21_000n,
      // Always outbid: the transaction at this nonce may have been broadcast without being recorded.
      ...(await this.fees(replaces, true)),
    } as never);
  }

  async fillNonceGap(sentNonces: readonly number[]): Promise<number | null> {
    if (sentNonces.length === 0) return null;
    const latest = await this.client.getTransactionCount({ address: this.account.address, blockTag: "latest" });
    const unmined = sentNonces.filter((n) => n >= latest);
    if (unmined.length === 0) return null;
    // The highest nonce the executor handed out, more than a grace period ago, and not mined:
    // every nonce below it that the node does not hold (from its pending count up) is a gap.
    const stuckAbove = Math.max(...unmined);
    const pending = await this.client.getTransactionCount({ address: this.account.address, blockTag: "pending" });
    if (stuckAbove <= pending) return null;
    // More than a few dozen missing nonces is not a gap but another relayer's history (a rotated key).
    if (stuckAbove - pending > 64)
      throw new Error(`nonces ${pending}..${stuckAbove} missing: is RELAYER_PRIVATE_KEY the key these payments were sent with?`);
    // Every missing nonce below the stuck one (the node's pending count moves past queued ones as gaps close).
    let next = pending;
    for (let i = 0; i < 32 && next < stuckAbove; i++) {
      await this.withdraw(next);
      next = await this.client.getTransactionCount({ address: this.account.address, blockTag: "pending" });
    }
    this.reserved = { next: -1, at: 0 };
    return pending;
  }

  private chainId?: number;
  private async chainDefinition() {
    this.chainId ??= await this.client.getChainId();
    const rt = networkRuntime(this.network);
    return {
      id: this.chainId,
      name: rt.network.name,
      nativeCurrency: { name: rt.network.nativeSymbol, symbol: rt.network.nativeSymbol, decimals: 18 },
      rpcUrls: { default: { http: [rt.rpcUrl!] } },
    };
  }

  async receipt(txHash: string): Promise<ReceiptStatus> {
    try {
      const r = await this.client.getTransactionReceipt({ hash: asHex(txHash) });
      return r.status === "success" ? "success" : "reverted";
    } catch (err) {
      if (!(err instanceof TransactionReceiptNotFoundError)) throw err;
    }
    try {
      await this.client.getTransaction({ hash: asHex(txHash) });
      return "pending";
    } catch (err) {
      if (err instanceof TransactionNotFoundError) return "unknown";
      throw err;
    }
  }

  async nextNonce(): Promise<number> {
    const pending = await this.client.getTransactionCount({ address: this.account.address, blockTag: "pending" });
    const fresh = Date.now() - this.reserved.at < RESERVATION_MS;
    const next = fresh ? Math.max(pending, this.reserved.next) : pending;
    this.reserved = { next: next + 1, at: Date.now() };
    return next;
  }

  async nonceUsed(nonce: number): Promise<boolean> {
    return (await this.client.getTransactionCount({ address: this.account.address, blockTag: "latest" })) > nonce;
  }
}

/** The executor's chain for a network, or null where recurring cannot run (no RPC, contract or relayer key). */
export function evmRecurringChain(network: NetworkId): EvmRecurringChain | null {
  const rt = networkRuntime(network);
  const client = publicClientFor(network);
  const account = relayerAccount(network);
  if (!client || !account || !rt.contracts.recurringPayments) return null;
  return new EvmRecurringChain(network, client, account, asEvmAddress(rt.contracts.recurringPayments));
}
