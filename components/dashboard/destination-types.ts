import type { DestinationSigningData, SettingsFormState, TronDestinationMessage } from "@/app/dashboard/settings/actions";
import type { PaymentNetwork } from "@/components/wallet/evm-config";

/** A currency the account can receive in (USDC or USDT on a network this deployment serves). */
export interface DestinationCurrency {
  /** Currency ID, e.g. USDC-base. */
  id: string;
  symbol: string;
  networkName: string;
  kind: "evm" | "tron";
  /** What the wallet needs to know of the currency's chain (EVM only). */
  wallet: PaymentNetwork | null;
}

export interface DestinationActions {
  signingData: (input: { currency: string; walletAddress: string }) => Promise<{
    error: string | null;
    field?: string;
    data?: DestinationSigningData;
  }>;
  /** A Tron wallet's form of the signing data: the text it signs with TRON message v2. */
  tronMessage: (input: { currency: string; walletAddress: string }) => Promise<{
    error: string | null;
    field?: string;
    data?: TronDestinationMessage;
  }>;
  saveSigned: (input: { currency: string; walletAddress: string; nonce: string; signature: string }) => Promise<SettingsFormState>;
  registerSessionWallet: (prev: SettingsFormState, form: FormData) => Promise<SettingsFormState>;
}
