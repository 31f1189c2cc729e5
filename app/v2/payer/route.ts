import { AppError } from "@/lib/errors";
import { withApi } from "@/lib/http/handler";
import { createPayerOp, PAYER_OUT_OF_SCOPE } from "@/lib/operations/retired";

export const dynamic = "force-dynamic";

export const POST = withApi(createPayerOp, async () => {
  throw new AppError("not_found", PAYER_OUT_OF_SCOPE);
});
