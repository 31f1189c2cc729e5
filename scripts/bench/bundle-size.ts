/**
 * `tsx scripts/bench/bundle-size.ts [route]` (default: /pay/[token] and /onboarding) after `next build`: the JavaScript a route's first load
 * needs, gzipped (level 9) file by file, from the build's own manifests — plus the chunks its
 * `next/dynamic` imports load right after, which the first-load figure does not include.
 *
 * Where Next 16 (Turbopack) records it, per app route:
 * - `.next/server/app/<route>/page/build-manifest.json` → `rootMainFiles`: runtime + framework,
 *   loaded by every page (polyfills are `nomodule`, skipped by modern browsers: not counted);
 * - `.next/server/app/<route>/page_client-reference-manifest.js` → `entryJSFiles`: the client
 *   chunks of the route's layouts and page (every client component the server tree renders);
 * - `.next/server/app/<route>/page/react-loadable-manifest.json`: one entry per `next/dynamic`
 *   import, with the chunks it fetches (the wallet panels of /pay/[token]).
 *
 * "Usable page": what a payer downloads from opening the page until the first wallet prompt —
 * the first load plus the lazy wallet panel that must arrive before clicking "Connect wallet"
 * shows the wallets (for EVM the chunks holding RainbowKit's connect modal; for Tron the
 * TronLink panel, whose button prompts TronLink itself). Chunks that load later (viem's actions
 * on a connected wallet's first call, components/wallet/bundle-shims/viem-actions.js) are not part of it.
 *
 * Exit code 1 when the first load is over its budget (BUNDLE_BUDGET_KB, default 300) or a usable
 * page over its own (USABLE_BUDGET_KB, default 250).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";

const ROOT = path.resolve(__dirname, "../..");
const NEXT = path.join(ROOT, ".next");
/** The hosted pages a payer or an invited platform opens (default), or the route given. */
const routes = process.argv[2] ? [process.argv[2]] : ["/pay/[token]", "/onboarding"];
const budgetKb = Number(process.env.BUNDLE_BUDGET_KB ?? 300);
const usableBudgetKb = Number(process.env.USABLE_BUDGET_KB ?? 250);
/** RainbowKit's connect-modal title id: marks the chunk group that must load before the wallet list shows. */
const CONNECT_MODAL_MARKER = "rk_connect_title";

interface ClientReferenceManifest {
  entryJSFiles?: Record<string, string[]>;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

function clientReferenceManifest(pageDir: string, page: string): ClientReferenceManifest {
  const file = `${pageDir}_client-reference-manifest.js`;
  // The file assigns globalThis.__RSC_MANIFEST[page]; evaluate it in a sandbox.
  const sandbox: { globalThis?: unknown; __RSC_MANIFEST?: Record<string, ClientReferenceManifest> } = {};
  sandbox.globalThis = sandbox;
  runInNewContext(readFileSync(file, "utf8"), sandbox);
  const manifest = sandbox.__RSC_MANIFEST?.[page];
  if (!manifest) throw new Error(`${file} has no manifest for ${page}`);
  return manifest;
}

const gzCache = new Map<string, { raw: number; gz: number }>();
function sizeOf(file: string): { raw: number; gz: number } {
  let s = gzCache.get(file);
  if (!s) {
    const buf = readFileSync(path.join(NEXT, file));
    s = { raw: buf.length, gz: gzipSync(buf, { level: 9 }).length };
    gzCache.set(file, s);
  }
  return s;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function total(files: Iterable<string>): { raw: number; gz: number } {
  let raw = 0;
  let gz = 0;
  for (const f of files) {
    const s = sizeOf(f);
    raw += s.raw;
    gz += s.gz;
  }
  return { raw, gz };
}

/** Names a lazy chunk group by what it contains, for the report only. */
type LazyKind = "evm" | "evm-flow" | "tron" | "deposit" | "other";

function kindOf(files: string[]): LazyKind {
  const text = files.map((f) => readFileSync(path.join(NEXT, f), "utf8")).join("\n");
  if (text.includes(CONNECT_MODAL_MARKER)) return "evm";
  if (text.includes("Payment steps") && !text.includes("TronLink")) return "evm-flow";
  if (text.includes("Send exactly")) return "deposit";
  if (text.includes("TronLink")) return "tron";
  return "other";
}

const DESCRIPTION: Record<LazyKind, string> = {
  evm: "EVM wallet panel (wagmi + RainbowKit connect modal + react-query)",
  "evm-flow": "EVM pay flow (plan, approve, pay: loads once a wallet is connected)",
  tron: "Tron wallet panel (TronLink adapter)",
  deposit: "Deposit view (pay by transfer, QR code)",
  other: "dynamic import",
};

function report(route: string): void {
  const page = `${route.replace(/\/$/, "")}/page`;
  const pageDir = path.join(NEXT, "server", "app", ...page.split("/").filter(Boolean));
  const buildManifest = readJson<{ rootMainFiles: string[] }>(path.join(pageDir, "build-manifest.json"));
  const crm = clientReferenceManifest(pageDir, page);
  const first = new Set<string>(
    [...buildManifest.rootMainFiles, ...Object.values(crm.entryJSFiles ?? {}).flat()].filter((f) => f.endsWith(".js")),
  );

  console.log(`First-load JS of ${route} (gzip -9, per file):`);
  for (const f of [...first].sort((a, b) => sizeOf(b).gz - sizeOf(a).gz)) {
    console.log(`  ${kb(sizeOf(f).gz).padStart(9)}  (${kb(sizeOf(f).raw).padStart(9)} raw)  ${f}`);
  }
  const firstTotal = total(first);
  console.log(`  ${kb(firstTotal.gz).padStart(9)}  (${kb(firstTotal.raw).padStart(9)} raw)  TOTAL first load (budget ${budgetKb} KB)`);

  const loadableFile = path.join(pageDir, "react-loadable-manifest.json");
  const usable: { kind: LazyKind; gz: number }[] = [];
  if (existsSync(loadableFile)) {
    const loadable = readJson<Record<string, { files: string[] }>>(loadableFile);
    console.log("\nLoaded on demand, by next/dynamic (not part of first load):");
    for (const entry of Object.values(loadable)) {
      // A manifest may name a chunk the build folded into another one: count only the files that exist.
      const js = entry.files.filter((f) => f.endsWith(".js") && !first.has(f) && existsSync(path.join(NEXT, f)));
      const t = total(js);
      const kind = kindOf(js);
      if (kind === "evm" || kind === "tron") usable.push({ kind, gz: firstTotal.gz + t.gz });
      console.log(
        `  ${kb(t.gz).padStart(9)}  (${kb(t.raw).padStart(9)} raw)  ${DESCRIPTION[kind]} — ${js.length} files; page total ${kb(firstTotal.gz + t.gz)}`,
      );
    }
  }
  if (usable.length > 0) {
    console.log("\nUsable page (first load + what must load before the first wallet prompt):");
    for (const u of usable) {
      const over = u.gz / 1024 > usableBudgetKb;
      console.log(
        `  ${kb(u.gz).padStart(9)}  USABLE ${u.kind === "evm" ? "EVM link: until the connect modal lists the wallets" : "Tron link: until Connect TronLink prompts"} (budget ${usableBudgetKb} KB) ${over ? "OVER" : "OK"}`,
      );
      if (over) process.exitCode = 1;
    }
  }

  if (firstTotal.gz / 1024 > budgetKb) {
    console.error(`\nOver budget: ${kb(firstTotal.gz)} > ${budgetKb} KB`);
    process.exitCode = 1;
  }
}

function main(): void {
  if (!existsSync(path.join(NEXT, "BUILD_ID"))) throw new Error("No build in .next: run `next build` first.");
  routes.forEach((route, i) => {
    if (i > 0) console.log("");
    report(route);
  });
}

main();
