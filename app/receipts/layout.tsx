import type { ReactNode } from "react";
import { PublicFrame } from "@/components/ui/public-frame";

/** Frame of the public receipt pages: the hosted page's, named for what it shows. */
export default function ReceiptLayout({ children }: { children: ReactNode }) {
  return (
    <PublicFrame
      label="Signed receipt"
      footer="This receipt is signed by Duebill with a published Ed25519 key and names the on-chain transfer it records: anyone can check both without trusting this page (npm run receipt:verify, or the algorithm in the receipts guide)."
    >
      {children}
    </PublicFrame>
  );
}
