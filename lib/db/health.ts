import { db } from "./client";

export async function checkHealth(): Promise<{ ok: boolean; database: "up" | "down" }> {
  try {
    await db().$queryRaw`SELECT 1`;
    return { ok: true, database: "up" };
  } catch {
    return { ok: false, database: "down" };
  }
}
