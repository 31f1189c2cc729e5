import { json, withApi } from "@/lib/http/handler";
import { tronBroadcastOp } from "@/lib/operations/secure-payment-tools";
import { broadcastTronTransaction } from "@/lib/secure-payments/tron-broadcast";

export const dynamic = "force-dynamic";

export const POST = withApi(tronBroadcastOp, async ({ params, body }) =>
  json(await broadcastTronTransaction(params.token, body.signedTransaction)),
);
