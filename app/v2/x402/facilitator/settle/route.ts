import { json, withApi } from "@/lib/http/handler";
import { x402SettleOp } from "@/lib/operations/x402";
import { settlePayment } from "@/lib/x402/facilitator";

export const dynamic = "force-dynamic";

export const POST = withApi(x402SettleOp, async ({ body }) => json((await settlePayment(body)).response));
