/**
 * One export measured in a process of its own (scripts/bench/exports.ts starts it): an API key for the
 * account, a warm-up export (modules, Prisma, the first queries), then GET /v2/exports/payments through
 * the real route handler into a sink that only counts bytes and rows, sampling this process's RSS
 * every 5 ms and at every chunk. Prints one JSON line: rows, bytes, seconds, baseline and peak RSS.
 * Started with --expose-gc, it also collects garbage every 10 chunks and records the live heap (heapUsed after a
 * full GC): V8 lets garbage pile up before a major GC when the allocation rate is high, so the natural RSS peak
 * tells how lazy the collector was; the collected one tells what the export keeps alive.
 * Usage: tsx scripts/bench/exports-child.ts <accountId> [format]
 */
const accountId = process.argv[2]!;
const format = process.argv[3] ?? "csv";

async function main(): Promise<void> {
  const { createApiKey } = await import("@/lib/accounts/issue-credentials");
  const { GET } = await import("@/app/v2/exports/[kind]/route");
  const { disconnectDb } = await import("@/lib/db");
  const key = (await createApiKey(accountId)).secret;
  const run = async (query: string, onChunk: (bytes: Uint8Array) => void) => {
    const req = new Request(`http://localhost:3000/v2/exports/payments?${query}`, { headers: { "x-api-key": key } });
    const res = await GET(req, { params: Promise.resolve({ kind: "payments" }) });
    if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      onChunk(value);
    }
  };
  // Warm-up: the newest 3 000 rows (three batches), so the measured run starts with everything loaded.
  let warm = 0;
  await run(`format=${format}&from=${new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10)}`, (b) => {
    warm += b.length;
  });
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  let peakHeap = process.memoryUsage().heapUsed;
  const baselineHeap = peakHeap;
  let chunks = 0;
  let peak = process.memoryUsage().rss;
  const baseline = peak;
  const sample = () => {
    const rss = process.memoryUsage().rss;
    if (rss > peak) peak = rss;
  };
  const timer = setInterval(sample, 5);
  let bytes = 0;
  let newlines = 0;
  const started = process.hrtime.bigint();
  await run(`format=${format}`, (chunk) => {
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines++;
    sample();
    if (gc && ++chunks % 10 === 0) {
      gc();
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    }
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(timer);
  sample();
  await disconnectDb();
  // CSV: a header line then one line per row (the bench's references hold no line break).
  const rows = format === "csv" ? newlines - 1 : newlines;
  console.log(JSON.stringify({ rows, bytes, seconds, baselineRss: baseline, peakRss: peak, baselineHeap, peakHeap, warmupBytes: warm }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
