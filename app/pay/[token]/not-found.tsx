import type { Metadata } from "next";
import { Card } from "@/components/ui/card";

export const metadata: Metadata = { title: "Payment link not found", robots: { index: false, follow: false } };

export default function PaymentLinkNotFound() {
  return (
    <Card aria-labelledby="not-found-heading">
      <h1 id="not-found-heading" className="text-xl font-semibold text-slate-900">
        Payment link not found
      </h1>
      <p className="mt-2 text-sm text-slate-600">
        Check that you opened the complete link. If it was copied by hand, a character may be missing. Otherwise, ask the sender for a new
        link.
      </p>
    </Card>
  );
}
