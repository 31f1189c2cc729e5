import { documentsPdf } from "@/lib/documents";
import { withApi } from "@/lib/http/handler";
import { getLinkInvoicePdfOp } from "@/lib/operations/documents";

export const dynamic = "force-dynamic";

export const GET = withApi(getLinkInvoicePdfOp, async ({ params }) => documentsPdf.linkInvoice(params.token));
