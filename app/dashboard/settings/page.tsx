import type { Metadata } from "next";
import { ActiveDestination, type DestinationRow, EarlierDestinations } from "@/components/dashboard/destination-active";
import { DestinationSetup } from "@/components/dashboard/destination-setup";
import type { DestinationCurrency } from "@/components/dashboard/destination-types";
import { ExcessPolicyForm, FeeForm } from "@/components/dashboard/settings-forms";
import { Panel } from "@/components/dashboard/shell";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { accountExcessPolicy } from "@/lib/accounts/excess-policy";
import { networkRuntime } from "@/lib/chain/config";
import { isNetworkId } from "@/lib/chain/networks";
import { isWatchedNetwork } from "@/lib/chain/watched";
import { tokenCurrencies } from "@/lib/currencies/registry";
import { listDestinations } from "@/lib/destinations/destinations";
import { activeFeeConfig } from "@/lib/fees/fee-config";
import { requireUser } from "@/lib/http/page-session";
import { mailStatus } from "@/lib/mail/config";
import {
  clearFeeAction,
  deactivateDestinationAction,
  destinationSigningDataAction,
  saveSignedDestinationAction,
  setDestinationAction,
  setExcessPolicyAction,
  setFeeAction,
  tronDestinationMessageAction,
} from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Settings", robots: { index: false } };

const isLocal = (url: string) => /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(url);

/** USDC and USDT on the networks this deployment serves (watches: lib/chain/watched.ts — what detection sweeps), with what a wallet needs of each chain. */
function destinationCurrencies(): DestinationCurrency[] {
  return tokenCurrencies()
    .filter((c) => ["USDC", "USDT"].includes(c.token.symbol))
    .flatMap((c) => {
      const id = c.token.network;
      if (!isNetworkId(id)) return [];
      if (!isWatchedNetwork(id)) return [];
      const rt = networkRuntime(id);
      const evm = rt.network.kind === "evm";
      return [
        {
          id: c.id,
          symbol: c.token.symbol,
          networkName: rt.network.name,
          kind: evm ? "evm" : "tron",
          // A local devnet's RPC is the wallet's too; public chains use their public RPC (never this server's keys).
          wallet: evm
            ? {
                chainId: rt.network.chainId,
                name: rt.network.name,
                testnet: rt.network.testnet,
                rpcUrl: rt.rpcUrl && isLocal(rt.rpcUrl) ? rt.rpcUrl : null,
              }
            : null,
        } satisfies DestinationCurrency,
      ];
    });
}

const networkName = (id: string) => (isNetworkId(id) ? networkRuntime(id).network.name : id);

export default async function SettingsPage() {
  const me = await requireUser("/dashboard/settings");
  const [destinations, fee, excessPolicy] = await Promise.all([
    listDestinations(me.account.id, 10),
    activeFeeConfig(me.account.id, "get_paid"),
    accountExcessPolicy(me.account.id),
  ]);
  const rows: DestinationRow[] = destinations.map((d) => ({
    id: d.id,
    tokenSymbol: d.tokenSymbol,
    network: d.network,
    walletAddress: d.walletAddress,
    active: d.active,
    deactivatedAt: d.deactivatedAt?.toISOString() ?? null,
  }));
  const active = rows.find((d) => d.active);
  const setup = (
    <DestinationSetup
      currencies={destinationCurrencies()}
      initialCurrency={active ? `${active.tokenSymbol}-${active.network}` : undefined}
      sessionWallet={me.user.walletAddress}
      hasActive={Boolean(active)}
      actions={{
        signingData: destinationSigningDataAction,
        tronMessage: tronDestinationMessageAction,
        saveSigned: saveSignedDestinationAction,
        registerSessionWallet: setDestinationAction,
      }}
    />
  );
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Settings</h1>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Where you get paid">
          <div className="space-y-4">
            {active ? (
              <ActiveDestination destination={active} networkName={networkName(active.network)} deactivate={deactivateDestinationAction} />
            ) : (
              <p className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200" data-testid="no-destination">
                No destination yet: payment links cannot be created until you choose the wallet that receives them.
              </p>
            )}
            {active ? (
              <details className="text-sm">
                <summary className="cursor-pointer font-medium text-indigo-700">Change where you get paid</summary>
                <div className="mt-3">{setup}</div>
              </details>
            ) : (
              setup
            )}
            <EarlierDestinations destinations={rows.filter((d) => !d.active)} />
          </div>
        </Panel>
        <Panel
          title="Platform fee on payment links"
          action={
            fee ? (
              <form action={clearFeeAction}>
                <ConfirmButton
                  title="Remove the platform fee?"
                  consequence={`Payment links created from now on carry no ${fee.percentageBps / 100}% fee (“${fee.label}”); links already sent keep theirs.`}
                  className="shrink-0 whitespace-nowrap rounded-md px-2 py-1 text-xs font-medium text-rose-700 ring-1 ring-inset ring-rose-200 hover:bg-rose-50"
                >
                  Remove fee
                </ConfirmButton>
              </form>
            ) : null
          }
        >
          <p className="mb-3 text-sm text-slate-600" data-testid="fee-summary">
            {fee
              ? `${fee.percentageBps / 100}%${fee.capUsd ? `, at most ${fee.capUsd} USD` : ""}, paid by the ${fee.feeBearer}, as "${fee.label}".`
              : "No fee: payers pay the amount of the link, nothing more."}
          </p>
          <FeeForm
            action={setFeeAction}
            current={{
              bps: fee ? String(fee.percentageBps) : "",
              cap: fee?.capUsd?.toFixed() ?? "",
              bearer: fee?.feeBearer ?? "payer",
              label: fee?.label ?? "",
              evm: fee?.evmAddress ?? "",
              tron: fee?.tronAddress ?? "",
            }}
          />
        </Panel>
        <Panel title="Wrong amounts: over, under, late">
          <p className="mb-3 text-sm text-slate-600">
            When a payer sends more than a link asks, or pays less and the link expires, or pays after it expired. A payment to a
            link&apos;s deposit address can be returned to its sender automatically; money already in your wallet is offered to you as a
            one-click refund. A link created with its own <code>excessPolicy</code> keeps it.
          </p>
          <ExcessPolicyForm action={setExcessPolicyAction} current={excessPolicy} />
        </Panel>
        <MailPanel email={me.user.email} />
      </div>
    </div>
  );
}

/** Whether this deployment sends receipts and payment notifications by email (lib/mail, SMTP_URL). */
function MailPanel({ email }: { email: string | null }) {
  const mail = mailStatus();
  return (
    <Panel title="Receipts by email">
      <p className="text-sm text-slate-600" data-testid="mail-status">
        {mail.enabled
          ? `On: sent from ${mail.from}. Payers of links created with collectPayerEmail get their receipt (PDF attached); ${
              email ? `you get a notice of each payment at ${email}.` : "users who sign in with an email get a notice of each payment."
            }`
          : "Off: this deployment has no SMTP server (SMTP_URL), so no email is sent. Receipts are still on the hosted page and in the API."}
      </p>
    </Panel>
  );
}
