import { z } from "zod";
import { ERROR_STATUS, type ErrorCode, STATUS_TEXT } from "@/lib/errors";
import type { ResponseSpec } from "@/lib/http/operation";

export const errorBodySchema = z
  .object({
    statusCode: z.number().int(),
    error: z.string(),
    message: z.string(),
    code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    requestId: z.string(),
  })
  .meta({ id: "Error" });

const DESCRIPTIONS: Record<number, string> = {
  400: "Invalid input: `errors` names each field at fault",
  401: "Missing, invalid or expired credentials",
  403: "Credentials valid but not allowed, or a revoked/restricted client ID, or an Origin outside the client ID's allowed domains",
  404: "Not found (also for objects of another account)",
  409: "State conflict",
  429: "Rate limit exceeded (Retry-After and RateLimit-* headers)",
};

export function errorResponses(...statuses: number[]): Record<number, ResponseSpec> {
  return Object.fromEntries(
    statuses.map((s) => [s, { description: DESCRIPTIONS[s] ?? STATUS_TEXT[s] ?? "Error", schema: errorBodySchema }]),
  );
}
