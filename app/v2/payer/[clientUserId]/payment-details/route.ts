import { AppError } from "@/lib/errors";
import { withApi } from "@/lib/http/handler";
import { createPayerPaymentDetailsOp, getPayerPaymentDetailsOp, PAYER_OUT_OF_SCOPE } from "@/lib/operations/retired";

export const dynamic = "force-dynamic";

const refuse = async () => {
  throw new AppError("not_found", PAYER_OUT_OF_SCOPE);
};

export const GET = withApi(getPayerPaymentDetailsOp, refuse);
export const POST = withApi(createPayerPaymentDetailsOp, refuse);
