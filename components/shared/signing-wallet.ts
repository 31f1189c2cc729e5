/**
 * What signing in (dashboard sign-in, orchestrator onboarding) needs of a wallet: EVM through
 * wagmi/RainbowKit, Tron through the TronLink adapter (useTronSigningWallet).
 */
export interface SigningWallet {
  kind: "evm" | "tron";
  address: string | undefined;
  name: string | undefined;
  /** EVM: the chain the challenge names. */
  chainId?: number;
  /** Connecting is in progress (a modal or the extension's pop-up is open). */
  connecting: boolean;
  /** The wallet is not installed (TronLink). */
  notFound?: boolean;
  connectError?: string | null;
  connect(): void;
  disconnect(): void;
  signMessage(message: string): Promise<string>;
}
