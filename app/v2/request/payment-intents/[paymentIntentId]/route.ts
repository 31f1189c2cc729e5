import { PAYMENT_INTENTS_REMOVED, paymentIntentRemovedOp } from "@/lib/contracts/retired";
import { AppError } from "@/lib/errors";
import { withApi } from "@/lib/http/handler";

export const dynamic = "force-dynamic";

export const POST = withApi(paymentIntentRemovedOp, async () => {
  throw new AppError("gone", PAYMENT_INTENTS_REMOVED);
});
