import { json, withApi } from "@/lib/http/handler";
import { x402VerifyOp } from "@/lib/operations/x402";
import { verifyPayment } from "@/lib/x402/facilitator";

export const dynamic = "force-dynamic";

export const POST = withApi(x402VerifyOp, async ({ body }) => json(await verifyPayment(body)));
