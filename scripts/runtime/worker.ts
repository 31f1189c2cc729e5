/** `npm run worker`: the background sweeps as their own process (stops cleanly on SIGINT/SIGTERM). */
import { disconnectDb } from "@/lib/db";
import { environmentProblems, formatEnvProblems } from "@/lib/env";
import { startWorker } from "@/lib/jobs/worker";

// Like npm start: every missing or malformed variable in one message, before any sweep runs.
const problems = environmentProblems(process.env, { production: process.env.NODE_ENV === "production" });
if (problems.length > 0) {
  console.error(`[duebill] worker refusing to start: ${formatEnvProblems(problems)}`);
  process.exit(1);
}

const worker = startWorker();
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    void worker
      .stop()
      .then(() => disconnectDb())
      .then(() => process.exit(0));
  });
}
