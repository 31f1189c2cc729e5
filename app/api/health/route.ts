import { liveness } from "@/lib/admin/liveness";

export const dynamic = "force-dynamic";

/** Liveness and readiness: 503 only when the database is down (lib/admin/liveness.ts). */
export async function GET(): Promise<Response> {
  const health = await liveness();
  return Response.json(health, { status: health.ok ? 200 : 503, headers: { "cache-control": "no-store" } });
}
