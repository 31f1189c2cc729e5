import { openApiJson } from "@/lib/operations/openapi";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return new Response(openApiJson(), { headers: { "content-type": "application/json", "access-control-allow-origin": "*" } });
}
