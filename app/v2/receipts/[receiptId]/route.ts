import { json, withApi } from "@/lib/http/handler";
import { getReceiptOp } from "@/lib/operations/receipts";
import { publicReceipt } from "@/lib/receipts/read";

export const dynamic = "force-dynamic";

/** Public, CORS-open and immutable: a receipt never changes once issued. */
export const GET = withApi(getReceiptOp, async ({ params, query }) => {
  const { id, signed } = await publicReceipt(params.receiptId);
  return json(`${JSON.stringify(signed, null, 2)}\n`, 200, {
    "cache-control": "public, max-age=86400, immutable",
    "access-control-allow-origin": "*",
    ...(query.download ? { "content-disposition": `attachment; filename="receipt-${id}.json"` } : {}),
  });
});
