import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache, type ReactNode } from "react";
import { LiveLinkProvider } from "@/components/pay/hooks/live-link";
import { AuthorizedPanel } from "@/components/pay/panels/authorized-panel";
import { LinkOutcome, PaymentReceived } from "@/components/pay/panels/link-outcome";
import { LivePanels } from "@/components/pay/panels/live-panels";
import { PaidPanel } from "@/components/pay/panels/paid-panel";
import { PayActions } from "@/components/pay/panels/pay-actions";
import { PayByTransfer } from "@/components/pay/panels/pay-by-transfer";
import { PayPanelLoader } from "@/components/pay/panels/pay-panel-loader";
import { PayerEmail } from "@/components/pay/panels/payer-email";
import { PaymentSummary } from "@/components/pay/panels/payment-summary";
import { WrongAmountNote } from "@/components/pay/panels/wrong-amount-note";
import { groupAmount } from "@/components/shared/format";
import { BrandHeader } from "@/components/ui/brand-header";
import { nowMs } from "@/lib/clock";
import { authorizationHold } from "@/lib/commerce/page";
import { getPaymentPage } from "@/lib/secure-payments/page-data";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string }> };

/** One lookup per request, shared by generateMetadata and the page. */
const loadPage = cache((token: string) => getPaymentPage(token));

/**
 * Only wagmi's own cookie is handed to the client, raw as wagmi wrote it (its parser expects
 * `wagmi.store=<json>`): the rest of the Cookie header may hold httpOnly session cookies.
 */
function wagmiCookie(header: string | null): string | null {
  return header?.split("; ").find((c) => c.startsWith("wagmi.store=")) ?? null;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { token } = await params;
  const data = await loadPage(token);
  const status = data?.status ?? null;
  const title = !data
    ? "Payment link not found"
    : status === "pending" && data.items.some((i) => i.state === "due")
      ? `Pay ${groupAmount(data.totalAmount)} ${data.currency.symbol}`
      : status === "completed"
        ? "Payment complete"
        : "Payment link";
  // The URL is a bearer capability: keep it out of search engines and out of Referer headers.
  return { title, robots: { index: false, follow: false, nocache: true }, referrer: "no-referrer" };
}

export default async function PaymentPage({ params }: Props) {
  const { token } = await params;
  const data = await loadPage(token);
  if (!data) notFound();
  // data.status already applies the expiry rule (lib/secure-payments/status.ts) on the server clock.
  const { status } = data;

  // Paid by authorization (lib/commerce): the money is held, not charged; no second payment is offered.
  const hold =
    status === "pending"
      ? await authorizationHold(
          data.items.map((i) => i.requestId),
          data.currency.decimals,
        )
      : null;

  let panel: ReactNode;
  if (hold) {
    panel = <AuthorizedPanel {...hold} symbol={data.currency.symbol} />;
  } else if (status === "pending" && !data.items.some((i) => i.state === "due")) {
    // Paid, not yet settled (screening pending): a paid link never expires, and is never paid twice.
    // LiveLinkProvider follows it from here and shows the outcome once settled.
    panel = (
      <LivePanels>
        <PaymentReceived />
      </LivePanels>
    );
  } else if (status === "pending") {
    const cookie = data.network.kind === "evm" ? wagmiCookie((await headers()).get("cookie")) : null;
    panel = (
      <LivePanels>
        {data.collectPayerEmail ? <PayerEmail token={data.token} given={data.payerEmailGiven} /> : null}
        <PayActions
          wallet={<PayPanelLoader data={data} cookie={cookie} />}
          transfer={data.payByTransfer ? <PayByTransfer data={data} /> : null}
        />
      </LivePanels>
    );
  } else if (status === "completed") {
    panel = (
      <PaidPanel
        payerAddress={data.payerAddress}
        txHash={data.txHash}
        explorerPrefix={data.network.explorerTxUrl}
        completedAt={data.completedAt}
        receiptUrl={data.receiptUrl}
        redirectUrl={data.redirectUrl}
        redirectLabel={data.redirectLabel}
      />
    );
  } else {
    panel = <LinkOutcome status={status} />;
  }

  // One live view of the link for the whole page (summary badge and panels change together); it
  // stays mounted across router.refresh, so the refreshed render is folded in, never a step back.
  return (
    <LiveLinkProvider initial={data}>
      {data.merchant ? <BrandHeader brand={{ displayName: data.merchant.name, ...data.merchant }} /> : null}
      <PaymentSummary data={data} now={nowMs()} held={Boolean(hold)} />
      {panel}
      {status === "pending" ? null : <WrongAmountNote facts={data} />}
    </LiveLinkProvider>
  );
}
