import { startExport } from "@/lib/exports/export";
import { withApi } from "@/lib/http/handler";
import { exportOp } from "@/lib/operations/exports";

export const dynamic = "force-dynamic";

/** A streamed attachment (lib/exports): the filters are checked before the first byte. */
export const GET = withApi(exportOp, async ({ principal, params, query }) => startExport(principal.accountId, params.kind, query));
