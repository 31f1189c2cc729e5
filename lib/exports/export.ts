import { now } from "@/lib/clock";
import type { ExportFormat, ExportKind } from "@/lib/exports/columns";
import { type ExportQuery, exportFilename, parseExportFilters } from "@/lib/exports/filters";
import { exportSource } from "@/lib/exports/sources";
import { exportStream } from "@/lib/exports/stream";

/**
 * GET /v2/exports/{kind} and the dashboard's Export (docs/guides/exports.md): the account's
 * payments, payouts, refunds or requests as CSV, a JSON array or NDJSON, streamed. The filters are
 * checked before the first byte (a bad one is a 400 naming it); after that the body is a stream
 * read batch by batch as the client reads it.
 */
export interface ExportRequest extends ExportQuery {
  format?: ExportFormat;
  /** CSV only: "true" starts the file with a UTF-8 byte order mark, so Excel reads it as UTF-8. */
  bom?: "true" | "false";
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8; header=present",
  json: "application/json; charset=utf-8",
  ndjson: "application/x-ndjson; charset=utf-8",
};

export function startExport(accountId: string, kind: ExportKind, q: ExportRequest): Response {
  const filters = parseExportFilters(kind, q);
  const format = q.format ?? "csv";
  const body = exportStream(exportSource(kind, accountId, filters), { format, bom: q.bom === "true" });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": CONTENT_TYPES[format],
      "content-disposition": `attachment; filename="${exportFilename(kind, q, format, now())}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
