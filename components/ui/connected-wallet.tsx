/** "Connected: <address>" with a Disconnect button: the row above a wallet flow once a wallet is connected. */
export function ConnectedWallet({ address, busy, onDisconnect }: { address: string; busy: boolean; onDisconnect: () => void }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
      <span className="min-w-0">
        Connected:{" "}
        <span data-testid="connected-address" className="break-all font-mono text-xs text-slate-900">
          {address}
        </span>
      </span>
      <button
        type="button"
        onClick={onDisconnect}
        disabled={busy}
        className="rounded-md px-2 py-1 text-xs font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:opacity-60"
      >
        Disconnect
      </button>
    </div>
  );
}
