import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { addressKey } from "@/lib/chain/address";
import { env } from "@/lib/env";
import type { KytProvider, KytResult } from "@/lib/kyt/types";

/**
 * Built-in screening: the OFAC SDN digital-currency addresses bundled in data/ofac-sdn (or
 * KYT_SANCTIONS_DIR), plus the operator's deny list (KYT_DENY_LIST, KYT_DENY_LIST_FILE).
 * EVM addresses compare case-insensitively, Tron base58 exactly. Loaded once per process.
 */
interface Lists {
  sanctioned: Set<string>;
  denied: Set<string>;
  reference: string;
}

const key = addressKey;

function readLines(file: string): string[] {
  return readFileSync(file, "utf8")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
}

/** Loaded once per configuration: a reloaded environment (a changed deny list) reloads them. */
let lists: { config: object; lists: Lists } | undefined;

function load(): Lists {
  const dir = env().KYT_SANCTIONS_DIR ?? path.join(process.cwd(), "data", "ofac-sdn");
  const sanctioned = new Set<string>();
  if (existsSync(/*turbopackIgnore: true*/ dir)) {
    for (const f of readdirSync(/*turbopackIgnore: true*/ dir))
      if (/^sanctioned_addresses_\w+\.txt$/.test(f)) for (const a of readLines(path.join(dir, f))) sanctioned.add(key(a));
  }
  const denied = new Set<string>();
  for (const a of (env().KYT_DENY_LIST ?? "").split(",")) if (a.trim()) denied.add(key(a.trim()));
  const file = env().KYT_DENY_LIST_FILE;
  if (file && existsSync(file)) for (const a of readLines(file)) denied.add(key(a));
  return { sanctioned, denied, reference: `ofac-sdn:${path.basename(dir)}:${sanctioned.size}` };
}

function current(): Lists {
  const config = env();
  if (lists?.config !== config) lists = { config, lists: load() };
  return lists.lists;
}

/** For operators: where the screening list comes from, how many addresses, and the extraction date. */
export function screeningListInfo(): { source: string; sanctioned: number; denied: number; listDate: string | null } {
  const dir = env().KYT_SANCTIONS_DIR ?? path.join(process.cwd(), "data", "ofac-sdn");
  const { sanctioned, denied } = current();
  let listDate: string | null = null;
  const note = path.join(dir, "SOURCE.md");
  if (existsSync(/*turbopackIgnore: true*/ note)) listDate = /\b(\d{4}-\d{2}-\d{2})\b/.exec(readFileSync(note, "utf8"))?.[1] ?? null;
  return {
    source: env().KYT_SANCTIONS_DIR ? dir : "Bundled OFAC SDN list (data/ofac-sdn)",
    sanctioned: sanctioned.size,
    denied: denied.size,
    listDate,
  };
}

/** The operator's deny list alone: its rejection, or null (screening plans run it before any vendor). */
export function operatorDenied(walletAddress: string): KytResult | null {
  const { denied, reference } = current();
  if (!denied.has(key(walletAddress))) return null;
  return {
    walletAddress,
    walletType: "eoa",
    parentWalletAddress: null,
    status: "rejected",
    reasonCode: "deny_listed",
    provider: "duebill-sanctions-list",
    providerReference: reference,
    reportUrl: null,
    notes: "Address is on the operator's deny list",
    rawStatus: "deny_listed",
    evaluatedAt: new Date().toISOString(),
  };
}

export const sanctionsListProvider: KytProvider = {
  name: "duebill-sanctions-list",
  async screen(walletAddress) {
    const { sanctioned, denied, reference } = current();
    const k = key(walletAddress);
    const reason = sanctioned.has(k) ? "sanctioned_address" : denied.has(k) ? "deny_listed" : null;
    const result: KytResult = {
      walletAddress,
      walletType: "eoa",
      parentWalletAddress: null,
      status: reason ? "rejected" : "approved",
      reasonCode: reason,
      provider: "duebill-sanctions-list",
      providerReference: reference,
      reportUrl: null,
      notes:
        reason === "sanctioned_address"
          ? "Address is on the OFAC SDN list"
          : reason === "deny_listed"
            ? "Address is on the operator's deny list"
            : null,
      rawStatus: reason ?? "clear",
      evaluatedAt: new Date().toISOString(),
    };
    return result;
  },
};
