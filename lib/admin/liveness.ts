import { checkHealth } from "@/lib/db";
import { relayersHealth } from "@/lib/recurring/relayer";

/**
 * `GET /api/health`, liveness and readiness: `ok` is false only when the database is down.
 * Relayers low on gas are operator alerts here (and in the logs), not an outage: payments keep
 * running until one cannot be paid.
 */
export async function liveness() {
  const health = await checkHealth();
  const relayers = health.ok ? await relayersHealth().catch(() => []) : [];
  const alerts = relayers
    .filter((r) => r.low || r.error)
    .map((r) =>
      r.error
        ? `relayer ${r.address} on ${r.network}: balance unreadable (${r.error})`
        : `relayer ${r.address} on ${r.network} is low on gas (${r.balance})${r.empty ? ": recurring payments are paused until it is funded" : ""}`,
    );
  return { ...health, relayers, alerts };
}
