import { documentsPdf } from "@/lib/documents";
import { withApi } from "@/lib/http/handler";
import { getReceiptPdfOp } from "@/lib/operations/documents";

export const dynamic = "force-dynamic";

export const GET = withApi(getReceiptPdfOp, async ({ params }) => documentsPdf.receipt(params.receiptId));
