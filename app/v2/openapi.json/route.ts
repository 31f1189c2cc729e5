import { openApiJson } from "@/lib/openapi/document";
import { OPERATIONS } from "@/lib/operations/index";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return new Response(openApiJson(OPERATIONS), { headers: { "content-type": "application/json", "access-control-allow-origin": "*" } });
}
