/**
 * The devnet bridge's relayer: watches DuebillDevnetBridge deposits on the source chain and, for
 * each, pays the destination request through the destination's ERC20FeeProxy (with the request's
 * payment reference) from its own liquidity, then records the settlement on the source chain.
 * A deposit it cannot honour (unknown chain, too small, no liquidity) is refunded with a reason.
 *
 * Restart-safe: deposits are read from the bridge's creation block, settled or refunded ones are
 * skipped by their on-chain state, and a destination payment already sent for a deposit (a crash
 * between paying and settling) is found by its reference before paying again.
 */
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  keccak256,
  maxUint256,
  type PublicClient,
  parseEventLogs,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { devnetBridgeAbi } from "@/contracts/generated/abis.generated";
import { erc20FeeProxyAbi } from "@/lib/chain/abis";
import { devnetBridgeSourceAmount } from "@/lib/routing/devnet-bridge";
import type { BridgeDevnet } from "./bridge";
import type { Devnet } from "./index";

export interface RelayerDestination {
  chain: Chain;
  rpcUrl: string;
  erc20FeeProxy: Address;
  /** Decimals per destination token address (lower-case). */
  tokenDecimals: Record<string, number>;
}

export interface BridgeRelayerOptions {
  source: { chain: Chain; rpcUrl: string; bridge: Address; fromBlock: bigint; tokenDecimals: Record<string, number> };
  destinations: RelayerDestination[];
  privateKey: Hex;
  pollMs?: number;
  log?: (message: string) => void;
}

export interface BridgeRelayer {
  /** One pass over new deposits; returns how many were settled or refunded. */
  tick(): Promise<number>;
  stop(): void;
}

const DEPOSITED = 1;

export function startBridgeRelayer(opts: BridgeRelayerOptions, autoStart = true): BridgeRelayer {
  const account = privateKeyToAccount(opts.privateKey);
  const log = opts.log ?? ((m: string) => console.log(`[bridge] ${m}`));
  const srcPub = createPublicClient({ chain: opts.source.chain, transport: http(opts.source.rpcUrl), pollingInterval: 50 });
  const srcWallet = createWalletClient({ chain: opts.source.chain, transport: http(opts.source.rpcUrl), account });
  const dst = new Map(
    opts.destinations.map((d) => [
      d.chain.id,
      {
        ...d,
        pub: createPublicClient({ chain: d.chain, transport: http(d.rpcUrl), pollingInterval: 50 }) as PublicClient,
        wallet: createWalletClient({ chain: d.chain, transport: http(d.rpcUrl), account }),
      },
    ]),
  );
  let nextBlock = opts.source.fromBlock;
  let running = false;
  let timer: NodeJS.Timeout | undefined;

  async function existingPayment(d: NonNullable<ReturnType<typeof dst.get>>, reference: Hex, amount: bigint, to: Address) {
    const logs = await d.pub.getLogs({
      address: d.erc20FeeProxy,
      event: erc20FeeProxyAbi[1],
      args: { paymentReference: keccak256(reference) as never },
      fromBlock: 0n,
    });
    for (const l of logs) {
      if (l.args.amount !== amount || getAddress(l.args.to as Address) !== to) continue;
      const tx = await d.pub.getTransaction({ hash: l.transactionHash });
      if (getAddress(tx.from) === account.address) return l.transactionHash;
    }
    return null;
  }

  async function handle(
    depositId: bigint,
    token: Address,
    amount: bigint,
    destination: {
      chainId: bigint;
      token: Address;
      payee: Address;
      amount: bigint;
      paymentReference: Hex;
      feeAmount: bigint;
      feeAddress: Address;
    },
  ): Promise<boolean> {
    const [, , , state] = await srcPub.readContract({
      address: opts.source.bridge,
      abi: devnetBridgeAbi,
      functionName: "deposits",
      args: [depositId],
    });
    if (state !== DEPOSITED) return false;
    const refund = async (reason: string) => {
      log(`deposit ${depositId}: refunding (${reason})`);
      const hash = await srcWallet.writeContract({
        address: opts.source.bridge,
        abi: devnetBridgeAbi,
        functionName: "refund",
        args: [depositId, reason],
      });
      await srcPub.waitForTransactionReceipt({ hash });
      return true;
    };
    const d = dst.get(Number(destination.chainId));
    if (!d) return refund(`no route to chain ${destination.chainId}`);
    const dstDecimals = d.tokenDecimals[destination.token.toLowerCase()];
    const srcDecimals = opts.source.tokenDecimals[token.toLowerCase()];
    if (dstDecimals === undefined || srcDecimals === undefined) return refund("token not bridged");
    const needed = devnetBridgeSourceAmount(destination.amount + destination.feeAmount, dstDecimals, srcDecimals).sourceAmount;
    if (amount < needed) return refund(`deposit ${amount} is short of ${needed}`);

    let paidIn = await existingPayment(d, destination.paymentReference, destination.amount, getAddress(destination.payee));
    if (!paidIn) {
      const total = destination.amount + destination.feeAmount;
      const balance = await d.pub.readContract({
        address: destination.token,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [account.address],
      });
      if (balance < total) return refund("the bridge has no liquidity for this amount");
      const allowance = await d.pub.readContract({
        address: destination.token,
        abi: erc20Abi,
        functionName: "allowance",
        args: [account.address, d.erc20FeeProxy],
      });
      if (allowance < total) {
        const hash = await d.wallet.writeContract({
          address: destination.token,
          abi: erc20Abi,
          functionName: "approve",
          args: [d.erc20FeeProxy, maxUint256],
        });
        await d.pub.waitForTransactionReceipt({ hash });
      }
      const hash = await d.wallet.writeContract({
        address: d.erc20FeeProxy,
        abi: erc20FeeProxyAbi,
        functionName: "transferFromWithReferenceAndFee",
        args: [
          destination.token,
          destination.payee,
          destination.amount,
          destination.paymentReference,
          destination.feeAmount,
          destination.feeAddress,
        ],
      });
      const receipt = await d.pub.waitForTransactionReceipt({ hash });
      if (receipt.status !== "success") return refund("the destination payment reverted");
      paidIn = hash;
      log(`deposit ${depositId}: paid on chain ${destination.chainId} in ${hash}`);
    }
    const hash = await srcWallet.writeContract({
      address: opts.source.bridge,
      abi: devnetBridgeAbi,
      functionName: "settle",
      args: [depositId, paidIn],
    });
    await srcPub.waitForTransactionReceipt({ hash });
    return true;
  }

  async function tick(): Promise<number> {
    if (running) return 0;
    running = true;
    try {
      const head = await srcPub.getBlockNumber();
      if (head < nextBlock) return 0;
      const logs = await srcPub.getLogs({ address: opts.source.bridge, fromBlock: nextBlock, toBlock: head });
      let done = 0;
      for (const ev of parseEventLogs({ abi: devnetBridgeAbi, eventName: "Deposited", logs })) {
        if (await handle(ev.args.depositId, ev.args.token, ev.args.amount, ev.args.destination)) done++;
      }
      nextBlock = head + 1n;
      return done;
    } finally {
      running = false;
    }
  }

  const loop = () => {
    tick()
      .catch((err) => log(`pass failed, retrying: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`))
      .finally(() => {
        if (timer !== undefined) timer = setTimeout(loop, opts.pollMs ?? 1000);
      });
  };
  if (autoStart) timer = setTimeout(loop, 0);
  return {
    tick,
    stop: () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** The relayer between the destination devnet and its bridge source chain (npm run dev, tests). */
export function relayerFor(
  destination: Devnet,
  source: BridgeDevnet,
  opts: { pollMs?: number; log?: (m: string) => void } = {},
  autoStart = true,
) {
  const six = (tokens: readonly Address[]) => Object.fromEntries(tokens.map((t) => [t.toLowerCase(), 6]));
  return startBridgeRelayer(
    {
      source: {
        chain: source.chain,
        rpcUrl: source.rpcUrl,
        bridge: source.bridge,
        fromBlock: BigInt(source.bridgeCreationBlock),
        tokenDecimals: six([source.tokens.USDC, source.tokens.USDT]),
      },
      destinations: [
        {
          chain: destination.chain,
          rpcUrl: destination.rpcUrl,
          erc20FeeProxy: destination.contracts.erc20FeeProxy,
          tokenDecimals: six([destination.tokens.USDC, destination.tokens.USDT]),
        },
      ],
      privateKey: source.relayer.privateKey,
      pollMs: opts.pollMs,
      log: opts.log,
    },
    autoStart,
  );
}
