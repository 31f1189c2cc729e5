import type { Metadata } from "next";
import { headers } from "next/headers";
import { cache } from "react";
import { OnboardingLoader } from "@/components/onboarding/onboarding-loader";
import { BrandHeader } from "@/components/ui/brand-header";
import { cardClass } from "@/components/ui/card";
import { getOnboardingPage } from "@/lib/orchestrators/onboarding-page";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<{ token?: string | string[] }> };

const load = cache((token: string) => getOnboardingPage(token));
const tokenOf = (v: string | string[] | undefined) => (typeof v === "string" ? v : "");

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const data = await load(tokenOf((await searchParams).token));
  // The URL is a bearer capability: keep it out of search engines and Referer headers.
  return {
    title: data ? `Connect to ${data.orchestrator.name}` : "Onboarding link not found",
    robots: { index: false, follow: false, nocache: true },
    referrer: "no-referrer",
  };
}

function Notice({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section role="status" className={cardClass()}>
      <h1 className="text-lg font-semibold text-slate-900">{title}</h1>
      <p className="mt-2 text-sm text-slate-600">{children}</p>
    </section>
  );
}

export default async function OnboardingPage({ searchParams }: Props) {
  const data = await load(tokenOf((await searchParams).token));
  if (!data) {
    return (
      <Notice title="This onboarding link is not valid">
        Check that you opened the whole link, or ask the platform that invited you for a new one.
      </Notice>
    );
  }
  const brand = { displayName: data.orchestrator.name, ...data.orchestrator };
  if (data.state === "used")
    return (
      <>
        <BrandHeader brand={brand} subtitle="Invitation" />
        <Notice title="This onboarding is already complete">
          The link was used to connect a platform to {data.orchestrator.name}. Each link works once.
        </Notice>
      </>
    );
  if (data.state === "expired")
    return (
      <>
        <BrandHeader brand={brand} subtitle="Invitation" />
        <Notice title="This onboarding link has expired">Links are valid for two days. Ask {data.orchestrator.name} for a new one.</Notice>
      </>
    );
  const cookie =
    (await headers())
      .get("cookie")
      ?.split("; ")
      .find((c) => c.startsWith("wagmi.store=")) ?? null;
  return (
    <>
      <BrandHeader brand={brand} subtitle="Invitation" />
      <section aria-labelledby="invite-heading" className={cardClass()}>
        <h1 id="invite-heading" className="text-xl font-semibold text-slate-900">
          {data.orchestrator.name} invites you to get paid in stablecoins
        </h1>
        <p className="mt-2 text-sm text-slate-600">
          Connect a wallet and choose how you want to be paid. {data.orchestrator.name} then creates payment links for you; payers pay your
          wallet directly.
        </p>
        <h2 className="mt-4 text-sm font-semibold text-slate-900">What {data.orchestrator.name} will see</h2>
        <ul className="mt-1.5 list-disc space-y-1 pl-5 text-sm text-slate-600">
          <li>
            your new client ID, “{data.clientIdName}”{data.domains.length > 0 ? `, usable from ${data.domains.join(", ")}` : ""}
          </li>
          <li>your payout wallet address, network and currency</li>
          <li>the status of payments made through its links</li>
        </ul>
        <p className="mt-3 text-xs text-slate-500">Link valid until {new Date(data.expiresAt).toUTCString().replace(" GMT", " UTC")}.</p>
      </section>
      <OnboardingLoader data={data} cookie={cookie} />
    </>
  );
}
