import { json, withApi } from "@/lib/http/handler";
import { getPaymentPageOp } from "@/lib/operations/secure-payments";
import { getPublicLinkOrThrow } from "@/lib/secure-payments/pay-link";
import { assertNoSafePaymentInProgress } from "@/lib/secure-payments/safe";

export const dynamic = "force-dynamic";

export const GET = withApi(getPaymentPageOp, async ({ params, query }) => {
  // 423 while a Safe transaction for the link awaits its owners (the reference's Safe flow).
  await assertNoSafePaymentInProgress(params.token);
  return json(await getPublicLinkOrThrow(params.token, query.wallet));
});
