import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { groupAmount } from "@/components/shared/format";
import { SubscriptionFixLoader } from "@/components/subscriptions/fix-loader";
import { ScheduleSummary } from "@/components/subscriptions/schedule-summary";
import { PublicFrame } from "@/components/ui/public-frame";
import { getPayerSchedulePage } from "@/lib/recurring/payer-page";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string }> };

const load = cache((token: string) => getPayerSchedulePage(token));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const data = await load((await params).token);
  const title = data
    ? `${groupAmount(data.amount)} ${data.symbol} ${data.frequency.toLowerCase()} to ${data.merchant}`
    : "Subscription not found";
  // The URL is a bearer capability, as a payment link's: out of search engines and Referer headers.
  return { title, robots: { index: false, follow: false, nocache: true }, referrer: "no-referrer" };
}

/**
 * The payer's page of a recurring payout (issue 32), linked from every payment.upcoming_failure:
 * the schedule, the next due date and amount, what the next payment lacks (read from the chain
 * now), and the one-step fix (approve the allowance from the payer's wallet) or the on-chain cancel.
 */
export default async function SubscriptionPage({ params }: Props) {
  const data = await load((await params).token);
  if (!data) notFound();
  return (
    <PublicFrame
      label="Your subscription"
      footer="Non-custodial: each payment moves from your wallet to the merchant through the recurring contract you signed for. Duebill never holds your funds."
    >
      <ScheduleSummary data={data} />
      {data.approve || data.cancel || data.permit?.renew ? <SubscriptionFixLoader data={data} /> : null}
    </PublicFrame>
  );
}
