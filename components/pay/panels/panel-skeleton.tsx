import { WalletLoadingCard } from "@/components/ui/loading-card";

/** Placeholder of the pay panel while the wallet code loads. */
export function PanelSkeleton() {
  return <WalletLoadingCard title="Pay with your wallet" />;
}
