/** `npm run worker`: the background sweeps as their own process (stops cleanly on SIGINT/SIGTERM). */
import { disconnectDb } from "@/lib/db";
import { startWorker } from "@/lib/jobs/worker";

const worker = startWorker();
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    void worker
      .stop()
      .then(() => disconnectDb())
      .then(() => process.exit(0));
  });
}
