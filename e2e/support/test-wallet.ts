/**
 * An injected EIP-1193 wallet for the journeys. The page sees a provider announced through
 * EIP-6963 (as browser extensions do); every `request` goes to this Node process through
 * `page.exposeFunction`, where a viem wallet client holding a devnet key signs and sends to
 * anvil. Reads the wallet does not handle itself are forwarded to anvil unchanged.
 */
import type { Page } from "@playwright/test";
import { type Chain, createPublicClient, createWalletClient, defineChain, type Hex, http, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export interface TestWalletOptions {
  rpcUrl: string;
  /** The chain the devnet runs (the page's network). */
  chainId: number;
  privateKey: Hex;
  /** The chain the wallet is on when the page opens (default: another one, to exercise "Switch network"). */
  startChainId?: number;
  /** More chains the wallet knows (the cross-chain source chain), each with its RPC. */
  extraChains?: { chainId: number; rpcUrl: string }[];
}

export interface WalletCall {
  method: string;
  params: unknown[];
}

interface WalletReply {
  result?: unknown;
  error?: { code: number; message: string };
  /** Events the provider emits in the page after answering, e.g. chainChanged. */
  emit?: [string, unknown][];
}

export const TEST_WALLET_INFO = {
  uuid: "5b1fb4a2-6a55-4bb8-9f0e-3c1de0f1e2aa",
  name: "Duebill Test Wallet",
  rdns: "dev.duebill.testwallet",
  // EIP-6963 requires a data URI icon (RainbowKit only lists providers that have one).
  icon: "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAzMiAzMiI+PHJlY3Qgd2lkdGg9IjMyIiBoZWlnaHQ9IjMyIiByeD0iOCIgZmlsbD0iIzRmNDZlNSIvPjx0ZXh0IHg9IjE2IiB5PSIyMiIgZm9udC1zaXplPSIxNiIgdGV4dC1hbmNob3I9Im1pZGRsZSIgZmlsbD0id2hpdGUiPlQ8L3RleHQ+PC9zdmc+",
} as const;

/** Runs in the page (serialised by addInitScript): a provider that forwards to the test process. */
function injectProvider(info: typeof TEST_WALLET_INFO): void {
  type Listener = (payload: unknown) => void;
  const bridge = (window as unknown as { __duebillTestWallet: (method: string, params: unknown[]) => Promise<WalletReply> })
    .__duebillTestWallet;
  const listeners: Record<string, Listener[]> = {};
  const emit = (event: string, payload: unknown) => {
    for (const fn of listeners[event]?.slice() ?? []) fn(payload);
  };
  const provider = {
    isDuebillTestWallet: true,
    async request(args: { method: string; params?: unknown[] }): Promise<unknown> {
      const reply = await bridge(args.method, args.params ?? []);
      if (reply.emit) {
        const events = reply.emit;
        setTimeout(() => {
          for (const [event, payload] of events) emit(event, payload);
        }, 0);
      }
      if (reply.error) throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
      return reply.result;
    },
    on(event: string, fn: Listener) {
      listeners[event] = [...(listeners[event] ?? []), fn];
      return provider;
    },
    removeListener(event: string, fn: Listener) {
      listeners[event] = (listeners[event] ?? []).filter((f) => f !== fn);
      return provider;
    },
  };
  // Lets the test process push wallet-side events (the user changing network in the wallet).
  Object.assign(window, { __duebillTestWalletEmit: emit });
  const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
  window.addEventListener("eip6963:requestProvider", announce);
  announce();
}

export class TestWallet {
  readonly calls: WalletCall[] = [];
  readonly sent: { to: string; data: string; hash: Hex }[] = [];
  readonly address: `0x${string}`;
  private currentChainId: number;
  private connected = false;
  private readonly rejections = new Map<string, number>();
  private readonly account;
  private readonly chains = new Map<
    number,
    { publicClient: ReturnType<typeof createPublicClient>; walletClient: ReturnType<typeof createWalletClient> }
  >();

  constructor(private readonly opts: TestWalletOptions) {
    this.account = privateKeyToAccount(opts.privateKey);
    this.address = this.account.address;
    this.currentChainId = opts.startChainId ?? 1;
    for (const c of [{ chainId: opts.chainId, rpcUrl: opts.rpcUrl }, ...(opts.extraChains ?? [])]) {
      const chain: Chain = defineChain({
        id: c.chainId,
        name: `devnet ${c.chainId}`,
        nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
        rpcUrls: { default: { http: [c.rpcUrl] } },
      });
      this.chains.set(c.chainId, {
        publicClient: createPublicClient({ chain, transport: http(c.rpcUrl) }),
        walletClient: createWalletClient({ account: this.account, chain, transport: http(c.rpcUrl) }),
      });
    }
  }

  /** The chain the wallet is on, or the devnet when it is on one it cannot send to (reads still work). */
  private get clients() {
    return this.chains.get(this.currentChainId) ?? this.chains.get(this.opts.chainId)!;
  }

  /** Call before the first navigation: exposes the bridge and injects the provider. */
  async install(page: Page): Promise<void> {
    await page.exposeFunction("__duebillTestWallet", (method: string, params: unknown[]) => this.handle(method, params));
    await page.addInitScript(injectProvider, TEST_WALLET_INFO);
  }

  /** The user changes network inside the wallet: the page gets `chainChanged`. */
  async userSwitchesChain(page: Page, chainId: number): Promise<void> {
    this.currentChainId = chainId;
    await page.evaluate(
      (hex) =>
        (window as unknown as { __duebillTestWalletEmit: (e: string, p: unknown) => void }).__duebillTestWalletEmit("chainChanged", hex),
      toHex(chainId),
    );
  }

  /** The next `count` requests of `method` are rejected as if the user clicked "Reject" (EIP-1193 code 4001). */
  rejectNext(method: string, count = 1): void {
    this.rejections.set(method, (this.rejections.get(method) ?? 0) + count);
  }

  get chainId(): number {
    return this.currentChainId;
  }

  private rejected(method: string): boolean {
    const left = this.rejections.get(method) ?? 0;
    if (left <= 0) return false;
    this.rejections.set(method, left - 1);
    return true;
  }

  async handle(method: string, params: unknown[]): Promise<WalletReply> {
    this.calls.push({ method, params });
    if (this.rejected(method)) return { error: { code: 4001, message: "User rejected the request." } };
    try {
      return await this.answer(method, params);
    } catch (err) {
      const e = err as { code?: unknown; shortMessage?: string; message?: string };
      return { error: { code: typeof e.code === "number" ? e.code : -32603, message: e.shortMessage ?? e.message ?? String(err) } };
    }
  }

  private async answer(method: string, params: unknown[]): Promise<WalletReply> {
    const accounts = this.connected ? [this.address] : [];
    switch (method) {
      case "eth_chainId":
        return { result: toHex(this.currentChainId) };
      case "net_version":
        return { result: String(this.currentChainId) };
      case "eth_accounts":
        return { result: accounts };
      case "eth_requestAccounts":
        this.connected = true;
        return { result: [this.address] };
      case "wallet_requestPermissions":
        this.connected = true;
        return { result: [{ parentCapability: "eth_accounts", caveats: [] }] };
      case "wallet_getPermissions":
        return { result: this.connected ? [{ parentCapability: "eth_accounts", caveats: [] }] : [] };
      case "wallet_revokePermissions":
        this.connected = false;
        return { result: null, emit: [["accountsChanged", []]] };
      case "wallet_switchEthereumChain": {
        const chainId = Number((params[0] as { chainId: string }).chainId);
        if (!this.chains.has(chainId) && chainId !== (this.opts.startChainId ?? 1))
          return { error: { code: 4902, message: `Unrecognized chain ID ${chainId}` } };
        this.currentChainId = chainId;
        return { result: null, emit: [["chainChanged", toHex(chainId)]] };
      }
      case "wallet_addEthereumChain":
        return { result: null };
      case "eth_sendTransaction": {
        if (!this.chains.has(this.currentChainId)) return { error: { code: -32000, message: `wallet is on chain ${this.currentChainId}` } };
        const tx = params[0] as { to: Hex; data?: Hex; value?: Hex; gas?: Hex };
        const hash = await this.clients.walletClient.sendTransaction({
          account: this.account,
          chain: undefined,
          to: tx.to,
          data: tx.data,
          value: tx.value ? BigInt(tx.value) : 0n,
          gas: tx.gas ? BigInt(tx.gas) : undefined,
        });
        this.sent.push({ to: tx.to, data: tx.data ?? "0x", hash });
        return { result: hash };
      }
      case "personal_sign":
        return { result: await this.account.signMessage({ message: { raw: params[0] as Hex } }) };
      case "eth_signTypedData_v4": {
        // As MetaMask: the JSON typed data of params[1], refused when its domain names another chain than the wallet's.
        const data = JSON.parse(params[1] as string) as {
          domain: { chainId?: number | string };
          types: Record<string, { name: string; type: string }[]>;
          primaryType: string;
          message: Record<string, unknown>;
        };
        if (data.domain.chainId !== undefined && Number(data.domain.chainId) !== this.currentChainId)
          return {
            error: {
              code: -32603,
              message: `Provided chainId "${data.domain.chainId}" must match the active chainId "${this.currentChainId}"`,
            },
          };
        const { EIP712Domain: _domain, ...types } = data.types;
        return { result: await this.account.signTypedData({ ...data, types } as never) };
      }
      default:
        // Reads (eth_call, eth_estimateGas, eth_getTransactionReceipt, ...) go to anvil as they are.
        return { result: await this.clients.publicClient.request({ method, params } as never) };
    }
  }
}
