import { dependencyStates } from "@/lib/admin/dependencies";
import { checkHealth } from "@/lib/db";
import { relayersHealth } from "@/lib/recurring/relayer";

/**
 * `GET /api/health`, liveness and readiness: `ok` is false only when the database is down.
 * `dependencies` says which of the database, Redis and each chain's RPC is down (an RPC or Redis
 * outage degrades, it does not make the instance unready).
 * Relayers low on gas are operator alerts here (and in the logs), not an outage: payments keep
 * running until one cannot be paid.
 */
export async function liveness() {
  const health = await checkHealth();
  const [relayers, dependencies] = await Promise.all([
    health.ok ? relayersHealth().catch(() => []) : [],
    dependencyStates(health.database),
  ]);
  const down = [
    ...(dependencies.redis === "down" ? ["redis: rate limits are counted per instance until it is back"] : []),
    ...Object.entries(dependencies.rpc)
      .filter(([, s]) => s === "down")
      .map(([network]) => `rpc ${network}: unreachable, detection on it waits and resumes from its cursor`),
  ];
  const alerts = relayers
    .filter((r) => r.low || r.error)
    .map((r) =>
      r.error
        ? `relayer ${r.address} on ${r.network}: balance unreadable (${r.error})`
        : `relayer ${r.address} on ${r.network} is low on gas (${r.balance})${r.empty ? ": recurring payments are paused until it is funded" : ""}`,
    );
  return { ...health, dependencies, relayers, alerts: [...alerts, ...down] };
}
