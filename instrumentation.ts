/** Next.js start-up hook: starts the in-process worker when WORKER_INLINE=true. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("@/lib/env");
  if (!env().WORKER_INLINE) return;
  const { startWorker } = await import("@/lib/jobs/worker");
  const globalForWorker = globalThis as unknown as { duebillWorker?: unknown };
  globalForWorker.duebillWorker ??= startWorker();
}
