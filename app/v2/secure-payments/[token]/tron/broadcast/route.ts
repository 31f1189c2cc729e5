import { tronBroadcastOp } from "@/lib/contracts/secure-payment-tools";
import { json, withApi } from "@/lib/http/handler";
import { broadcastTronTransaction } from "@/lib/secure-payments/tron-broadcast";

export const dynamic = "force-dynamic";

export const POST = withApi(tronBroadcastOp, async ({ params, body }) =>
  json(await broadcastTronTransaction(params.token, body.signedTransaction)),
);
