import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ReceiptView } from "@/components/receipts/receipt-view";
import { receiptPageView } from "@/lib/receipts/page";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ receiptId: string }> };

const load = cache((id: string) => receiptPageView(id));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const view = await load((await params).receiptId);
  const title = view ? `Receipt from ${view.signed.receipt.merchant.name}` : "Receipt not found";
  // The URL is the capability: out of search engines and out of Referer headers.
  return { title, robots: { index: false, follow: false, nocache: true }, referrer: "no-referrer" };
}

export default async function ReceiptPage({ params }: Props) {
  const view = await load((await params).receiptId);
  if (!view) notFound();
  return <ReceiptView view={view} />;
}
