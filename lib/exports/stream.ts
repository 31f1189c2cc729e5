import { EXPORT_COLUMNS, type ExportFormat, type ExportRow } from "@/lib/exports/columns";
import { csvRecord, UTF8_BOM } from "@/lib/exports/csv";
import type { BatchSource, Cursor } from "@/lib/exports/sources";
import { log } from "@/lib/log";

/** Rows per query: large enough that round trips do not dominate, small enough to hold in memory at once. */
export const EXPORT_BATCH = 1000;

export interface EncodeOptions {
  format: ExportFormat;
  /** CSV only: start with a UTF-8 byte order mark (Excel). */
  bom?: boolean;
}

/** The row with its keys in column order (JSON objects keep insertion order). */
const ordered = (r: ExportRow) => Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, r[c]]));

function encodeRows(rows: readonly ExportRow[], format: ExportFormat, first: boolean): string {
  if (format === "csv") return rows.map((r) => csvRecord(EXPORT_COLUMNS.map((c) => r[c]))).join("");
  if (format === "ndjson") return rows.map((r) => `${JSON.stringify(ordered(r))}\n`).join("");
  // A JSON array written piece by piece: "[" first, a comma before every row but the first, "]" last.
  return rows.map((r, i) => `${first && i === 0 ? "" : ","}\n${JSON.stringify(ordered(r))}`).join("");
}

/**
 * The export as a pull-based byte stream: a batch is read only when the consumer asks for more
 * (`pull`, with a high-water mark of one chunk), so a slow client holds the query loop back instead
 * of filling memory, and at most one batch of rows is in memory at a time, whatever the export's size.
 * Cancelling (the client went away) stops it: no batch is read after `cancel`.
 */
export function exportStream(source: BatchSource, options: EncodeOptions, batchSize = EXPORT_BATCH): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const { format } = options;
  let cursor: Cursor | null = null;
  let started = false;
  let wroteRow = false;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (cancelled) return;
        if (!started) {
          started = true;
          const head = format === "csv" ? `${options.bom ? UTF8_BOM : ""}${csvRecord(EXPORT_COLUMNS)}` : format === "json" ? "[" : "";
          if (head) {
            controller.enqueue(encoder.encode(head));
            return;
          }
        }
        try {
          const batch = await source(cursor, batchSize);
          if (cancelled) return;
          const text = encodeRows(batch.rows, format, !wroteRow);
          wroteRow ||= batch.rows.length > 0;
          cursor = batch.next;
          const tail = cursor === null && format === "json" ? `${wroteRow ? "\n" : ""}]\n` : "";
          if (text || tail) controller.enqueue(encoder.encode(text + tail));
          if (cursor === null) controller.close();
        } catch (err) {
          log.error("export stream failed", { err });
          controller.error(err);
        }
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 1 },
  );
}
