import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { addressKey } from "@/lib/chain/address";
import { nowMs } from "@/lib/clock";
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

export interface ScreeningListInfo {
  source: string;
  sanctioned: number;
  denied: number;
  /** The extraction date SOURCE.md names (YYYY-MM-DD), or null. */
  listDate: string | null;
  /** When the list dates from (ms): SOURCE.md's date at 00:00 UTC, else the newest list file's mtime; null without either. */
  listTime: number | null;
}

/** For operators: where the screening list comes from, how many addresses, and the extraction date. */
export function screeningListInfo(): ScreeningListInfo {
  const dir = env().KYT_SANCTIONS_DIR ?? path.join(process.cwd(), "data", "ofac-sdn");
  const { sanctioned, denied } = current();
  let listDate: string | null = null;
  const note = path.join(dir, "SOURCE.md");
  if (existsSync(/*turbopackIgnore: true*/ note)) listDate = /\b(\d{4}-\d{2}-\d{2})\b/.exec(readFileSync(note, "utf8"))?.[1] ?? null;
  let listTime = listDate ? Date.parse(`${listDate}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(listTime)) {
    const files = existsSync(/*turbopackIgnore: true*/ dir)
      ? readdirSync(/*turbopackIgnore: true*/ dir).filter((f) => /^sanctioned_addresses_\w+\.txt$/.test(f))
      : [];
    listTime = files.length ? Math.max(...files.map((f) => statSync(path.join(dir, f)).mtimeMs)) : Number.NaN;
  }
  return {
    source: env().KYT_SANCTIONS_DIR ? dir : "Bundled OFAC SDN list (data/ofac-sdn)",
    sanctioned: sanctioned.size,
    denied: denied.size,
    listDate,
    listTime: Number.isNaN(listTime) ? null : listTime,
  };
}

export interface ScreeningListAge {
  /** Whole hours since the list's date, or null when it has none. */
  ageHours: number | null;
  maxAgeHours: number;
  /** Older than SCREENING_LIST_MAX_AGE_HOURS, or of unknown age: the operator should update it. */
  stale: boolean;
}

/** How old the screening list is at `at` (the domain clock by default), against SCREENING_LIST_MAX_AGE_HOURS. */
export function screeningListAge(info: Pick<ScreeningListInfo, "listTime">, at: number = nowMs()): ScreeningListAge {
  const maxAgeHours = env().SCREENING_LIST_MAX_AGE_HOURS;
  if (info.listTime === null) return { ageHours: null, maxAgeHours, stale: true };
  const ageHours = Math.max(0, Math.floor((at - info.listTime) / 3_600_000));
  return { ageHours, maxAgeHours, stale: at - info.listTime > maxAgeHours * 3_600_000 };
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
