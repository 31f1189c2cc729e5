import { db } from "@/lib/db";

/** Empties every application table (not the migrations table) between tests. */
export async function resetDb(): Promise<void> {
  const rows = await db().$queryRaw<{ tablename: string }[]>`
    SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`;
  if (rows.length === 0) return;
  const list = rows.map((r) => `"public"."${r.tablename}"`).join(", ");
  await db().$executeRawUnsafe(`TRUNCATE ${list} RESTART IDENTITY CASCADE`);
}
