import { afterAll, beforeAll } from "vitest";
import { resetChainConfig } from "@/lib/chain/config";
import { resetCurrencyRegistry } from "@/lib/currencies/registry";
import { reloadEnv } from "@/lib/env";

/**
 * For the enclosing describe: this deployment watches the networks `vars` name (RPC_URL_BASE,
 * TRON_API_URL… — lib/chain/watched.ts), as hosted onboarding requires of a payout destination.
 * Nothing is contacted: only configured.
 */
export function watching(vars: Record<string, string>): void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (v: Record<string, string | undefined>) => {
    for (const [k, value] of Object.entries(v)) {
      if (value === undefined) delete process.env[k];
      else process.env[k] = value;
    }
    reloadEnv();
    resetChainConfig();
    resetCurrencyRegistry();
  };
  beforeAll(() => apply(vars));
  afterAll(() => apply(saved));
}
