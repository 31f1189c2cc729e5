import type { Metadata } from "next";
import { Card } from "@/components/ui/card";

export const metadata: Metadata = { title: "Receipt not found", robots: { index: false, follow: false } };

export default function ReceiptNotFound() {
  return (
    <Card aria-labelledby="not-found-heading" padding="roomy">
      <h1 id="not-found-heading" className="text-xl font-semibold text-slate-900">
        Receipt not found
      </h1>
      <p className="mt-2 text-sm text-slate-600">
        Check that you opened the complete link. Otherwise, ask the merchant for the receipt again.
      </p>
    </Card>
  );
}
