import { payLinkOp } from "@/lib/contracts/secure-payments";
import { json, withApi } from "@/lib/http/handler";
import { planLinkPayment } from "@/lib/secure-payments/pay-link";

export const dynamic = "force-dynamic";

export const GET = withApi(payLinkOp, async ({ params, query }) =>
  json(await planLinkPayment(params.token, query.wallet, { chain: query.chain, token: query.token, quoteId: query.quoteId })),
);
