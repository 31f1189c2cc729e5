import { AppError } from "@/lib/errors";
import { withApi } from "@/lib/http/handler";
import { getPayerOp, PAYER_OUT_OF_SCOPE, updatePayerOp } from "@/lib/operations/retired";

export const dynamic = "force-dynamic";

const refuse = async () => {
  throw new AppError("not_found", PAYER_OUT_OF_SCOPE);
};

export const GET = withApi(getPayerOp, refuse);
export const PATCH = withApi(updatePayerOp, refuse);
