import { PrismaPg } from "@prisma/adapter-pg";
import { env } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";

export type Db = PrismaClient;

const globalForDb = globalThis as unknown as { duebillDb?: PrismaClient };

function createClient(): PrismaClient {
  const { DATABASE_URL, DATABASE_POOL_MAX } = env();
  if (!DATABASE_URL) {
    throw new Error("DATABASE_URL is not set: start the app with `npm run dev` (embedded database) or set it.");
  }
  const adapter = new PrismaPg({ connectionString: DATABASE_URL, max: DATABASE_POOL_MAX });
  return new PrismaClient({ adapter });
}

/** One client per process (Next's dev server re-evaluates modules; keep it on globalThis). */
export function db(): PrismaClient {
  globalForDb.duebillDb ??= createClient();
  return globalForDb.duebillDb;
}

export async function disconnectDb(): Promise<void> {
  const client = globalForDb.duebillDb;
  globalForDb.duebillDb = undefined;
  await client?.$disconnect();
}
export async function checkHealth(): Promise<{ ok: boolean; database: "up" | "down" }> {
  try {
    await db().$queryRaw`SELECT 1`;
    return { ok: true, database: "up" };
  } catch {
    return { ok: false, database: "down" };
  }
}
