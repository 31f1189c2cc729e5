import { db } from "@/lib/db";
import { ulid } from "@/lib/ids";

/** The bench baseline's one INSERT (`POST /api/bench/insert`, `npm run bench`): an account row, nothing else. */
export async function insertBenchAccount(): Promise<void> {
  await db().account.create({ data: { id: `acc_bench_${ulid()}`, name: "bench" }, select: { id: true } });
}
