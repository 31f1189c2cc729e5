import { sameAddress } from "@/lib/chain/address";
import { sanctionsListProvider } from "@/lib/kyt/sanctions-list";
import type { KytProvider, KytResult } from "@/lib/kyt/types";

/**
 * The secure-payment access policy (DECISIONS.md): `off` screens nothing; `kyt_all_wallets`
 * (and `inherit`, the account default) screens every detected wallet; a non-empty
 * `allowedPayerAddresses` rejects any other payer. `maskPayee` hides the payee on the page.
 */
export interface AccessPolicy {
  mode: "inherit" | "off" | "kyt_all_wallets";
  allowedPayerAddresses?: string[];
  maskPayee?: boolean;
}

export async function screenWallet(
  walletAddress: string,
  network: string,
  policy: AccessPolicy | null,
  role: "payer" | "payee",
  provider: KytProvider = sanctionsListProvider,
): Promise<KytResult | null> {
  const mode = policy?.mode ?? "inherit";
  const allowed = policy?.allowedPayerAddresses ?? [];
  if (role === "payer" && allowed.length > 0 && !allowed.some((a) => sameAddress(a, walletAddress))) {
    return {
      walletAddress,
      walletType: "eoa",
      parentWalletAddress: null,
      status: "rejected",
      reasonCode: "payer_not_allowed",
      provider: "duebill-access-policy",
      providerReference: null,
      reportUrl: null,
      notes: "Payer is not in the link's allowedPayerAddresses",
      rawStatus: "not_allowed",
      evaluatedAt: new Date().toISOString(),
    };
  }
  if (mode === "off") return null;
  return provider.screen(walletAddress, network);
}
