import type { Metadata } from "next";
import { DestinationForm, FeeForm } from "@/components/dashboard/settings-forms";
import { Panel } from "@/components/dashboard/shell";
import { formatUtc } from "@/components/shared/format";
import { networkRuntime } from "@/lib/chain/config";
import { isNetworkId } from "@/lib/chain/networks";
import { tokenCurrencies } from "@/lib/currencies/registry";
import { listDestinations } from "@/lib/destinations/destinations";
import { activeFeeConfig } from "@/lib/fees/fee-config";
import { requireUser } from "@/lib/http/page-session";
import { clearFeeAction, deactivateDestinationAction, setDestinationAction, setFeeAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Settings", robots: { index: false } };

/** USDC and USDT on the networks this deployment serves (an RPC is configured). */
function destinationCurrencies(): string[] {
  return tokenCurrencies()
    .filter((c) => ["USDC", "USDT"].includes(c.token.symbol))
    .filter((c) => isNetworkId(c.token.network) && Boolean(networkRuntime(c.token.network).rpcUrl))
    .map((c) => c.id);
}

export default async function SettingsPage() {
  const me = await requireUser("/dashboard/settings");
  const [destinations, fee] = await Promise.all([listDestinations(me.account.id, 10), activeFeeConfig(me.account.id, "get_paid")]);
  const active = destinations.find((d) => d.active);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Settings</h1>
      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Payee destination">
          {active ? (
            <div className="mb-4 rounded-xl bg-slate-50 p-3 text-sm ring-1 ring-slate-200" data-testid="active-destination">
              <p className="font-medium">
                {active.tokenSymbol} on {active.network}
              </p>
              <p className="break-all font-mono text-xs text-slate-600">{active.walletAddress}</p>
              <form action={deactivateDestinationAction} className="mt-2">
                <input type="hidden" name="id" value={active.id} />
                <button
                  type="submit"
                  className="rounded-md px-2 py-1 text-xs font-medium text-rose-700 ring-1 ring-inset ring-rose-200 hover:bg-rose-50"
                >
                  Deactivate
                </button>
              </form>
            </div>
          ) : (
            <p className="mb-4 text-sm text-amber-800">No active destination: payment links cannot be created until one is set.</p>
          )}
          <DestinationForm action={setDestinationAction} currencies={destinationCurrencies()} wallet={me.user.walletAddress} />
          {destinations.some((d) => !d.active) ? (
            <details className="mt-4 text-sm">
              <summary className="cursor-pointer text-slate-600">Earlier destinations</summary>
              <ul className="mt-2 space-y-1 text-xs text-slate-500">
                {destinations
                  .filter((d) => !d.active)
                  .map((d) => (
                    <li key={d.id} className="break-all">
                      {d.tokenSymbol} on {d.network} · {d.walletAddress} · until{" "}
                      {d.deactivatedAt ? formatUtc(d.deactivatedAt.toISOString()) : "—"}
                    </li>
                  ))}
              </ul>
            </details>
          ) : null}
        </Panel>
        <Panel
          title="Platform fee on payment links"
          action={
            fee ? (
              <form action={clearFeeAction}>
                <button
                  type="submit"
                  className="shrink-0 whitespace-nowrap rounded-md px-2 py-1 text-xs font-medium text-rose-700 ring-1 ring-inset ring-rose-200 hover:bg-rose-50"
                >
                  Remove fee
                </button>
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
      </div>
    </div>
  );
}
