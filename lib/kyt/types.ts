/** The interface's KYT result object: every field present, nullable ones as null. */
export interface KytResult {
  walletAddress: string;
  walletType: "eoa" | "smart_account";
  parentWalletAddress: string | null;
  status: "approved" | "rejected" | null;
  reasonCode: string | null;
  provider: string | null;
  providerReference: string | null;
  reportUrl: string | null;
  notes: string | null;
  rawStatus: string | null;
  evaluatedAt: string | null;
}

/**
 * A screening provider. The built-in one checks sanctions and deny lists locally; a vendor
 * adapter (Chainalysis, TRM, Elliptic...) implements the same call over its API.
 */
export interface KytProvider {
  readonly name: string;
  screen(walletAddress: string, network: string): Promise<KytResult>;
}
