import { AppError } from "@/lib/errors";
import { withApi } from "@/lib/http/handler";
import { PAYMENT_INTENTS_REMOVED, paymentIntentRemovedOp } from "@/lib/operations/retired";

export const dynamic = "force-dynamic";

export const POST = withApi(paymentIntentRemovedOp, async () => {
  throw new AppError("gone", PAYMENT_INTENTS_REMOVED);
});
