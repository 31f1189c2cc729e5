import { AppError } from "@/lib/errors";
import { EXPORT_KINDS, type ExportKind } from "@/lib/exports/columns";
import { startExport } from "@/lib/exports/export";
import { currentUser } from "@/lib/http/page-session";
import { parseWith, queryObject } from "@/lib/http/parse";
import { exportQuerySchema } from "@/lib/operations/exports";

export const dynamic = "force-dynamic";

const FIELD_LABELS: Record<string, string> = {
  from: "From",
  to: "Until",
  network: "Network",
  currency: "Currency",
  status: "Status",
  format: "Format",
};

/** A relative Location: the browser resolves it against the address it used (the server may know itself by another host). */
const seeOther = (location: string) => new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });

/**
 * The dashboard's Export download: the page session's account (the API's own export, lib/exports),
 * so no API key reaches the browser. Signed out → sign-in; a refused filter → back to the payments
 * page with the message (the form shows it).
 */
export async function GET(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const me = await currentUser();
  if (!me) return seeOther(`/sign-in?next=${encodeURIComponent("/dashboard/payments")}`);
  const raw = queryObject(url);
  const kind = (EXPORT_KINDS as readonly string[]).includes(raw.kind ?? "") ? (raw.kind as ExportKind) : "payments";
  const excel = raw.format === "csv-excel";
  const { kind: _kind, ...rest } = raw;
  const fields = { ...rest, ...(excel ? { format: "csv", bom: "true" } : {}) };
  try {
    return startExport(me.account.id, kind, parseWith(exportQuerySchema, fields));
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 400) throw err;
    const first = err.errors?.[0];
    const message = first ? `${FIELD_LABELS[first.field] ?? first.field}: ${first.message}` : err.message;
    return seeOther(`/dashboard/payments?${new URLSearchParams({ exportError: message })}`);
  }
}
