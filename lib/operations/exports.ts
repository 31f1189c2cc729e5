import { z } from "zod";
import { EXPORT_COLUMNS, EXPORT_FORMATS, EXPORT_KINDS } from "@/lib/exports/columns";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";

/** Exports (issue 30), a Duebill extension: the reference has none. */
const text = (max: number, description: string) => z.string().max(max).optional().meta({ description });

export const exportParamsSchema = z.object({
  kind: z.enum(EXPORT_KINDS, { error: `must be one of ${EXPORT_KINDS.join(", ")}` }).meta({
    description: "payments (every recorded transfer, in and out), payouts (transfers of payouts), refunds, or requests (one row each)",
  }),
});

/** GET /v2/exports/{kind}'s query; the dashboard's Export form sends the same fields. */
export const exportQuerySchema = z.object({
  format: z
    .enum(EXPORT_FORMATS, { error: `must be one of ${EXPORT_FORMATS.join(", ")}` })
    .optional()
    .meta({ description: "csv (default, RFC 4180), json (one array) or ndjson (one object per line)" }),
  bom: z
    .enum(["true", "false"], { error: "must be true or false" })
    .optional()
    .meta({ description: "CSV: start with a UTF-8 byte order mark, so Excel opens accents and symbols as UTF-8" }),
  from: text(40, "From (inclusive): ISO 8601 date (midnight UTC) or date-time with Z or an offset"),
  to: text(40, "Until (exclusive): ISO 8601 date or date-time"),
  network: text(32, "Network ID, e.g. base"),
  currency: text(64, "Invoice or payment currency ID, e.g. USD or USDC-base"),
  status: text(
    20,
    "The request's status (pending, partially_paid, paid) for payments, payouts and requests; the refund's (prepared, sent, confirmed, cancelled) for refunds",
  ),
});

const csvRow = z.string().meta({
  description: `RFC 4180 CSV (CRLF), a header row then one row per transfer (per request for requests). Columns, in this order: ${EXPORT_COLUMNS.join(", ")}. A cell that begins with = + - @, a tab or CR (and is not a plain number) is prefixed with an apostrophe.`,
});
const exportRow = z
  .object(Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, z.union([z.string(), z.number()]).nullable()])))
  .meta({ id: "ExportRow" });

export const exportOp = defineOperation({
  method: "GET",
  path: "/v2/exports/{kind}",
  operationId: "exportRecords",
  summary: "Export payments, payouts, refunds or requests (CSV, JSON, NDJSON)",
  description:
    "The account's records newest first, streamed (any size, in batches of 1 000 read as the client reads), as an attachment `duebill-<kind>-<from>-<to>.<format>`. " +
    "Filters, ANDed: `from` (inclusive) and `to` (exclusive) on the transfer's block time (refunds and requests: their creation time), `network`, `currency` (the invoice or the payment currency), `status`. " +
    "Columns and their meaning: docs/guides/exports.md. Only the caller's account is exported.",
  tags: ["Exports"],
  auth: ["apiKey", "session"],
  browser: false,
  params: exportParamsSchema,
  query: exportQuerySchema,
  responses: {
    200: {
      description: "The export (Content-Disposition: attachment)",
      content: {
        "text/csv": csvRow,
        "application/json": z.array(exportRow),
        "application/x-ndjson": z.string().meta({ description: "One ExportRow JSON object per line" }),
      },
    },
    ...errorResponses(400, 401, 403, 429),
  },
});
