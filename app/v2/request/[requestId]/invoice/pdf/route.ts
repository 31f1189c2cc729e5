import { documentsPdf } from "@/lib/documents";
import { withApi } from "@/lib/http/handler";
import { getRequestInvoicePdfOp } from "@/lib/operations/documents";

export const dynamic = "force-dynamic";

export const GET = withApi(getRequestInvoicePdfOp, async ({ principal, params }) =>
  documentsPdf.requestInvoice(principal.accountId, params.requestId),
);
