import { json, withApi } from "@/lib/http/handler";
import { getMulticallPayoutOp } from "@/lib/operations/secure-payment-tools";
import { getMulticallForAccount } from "@/lib/secure-payments/multicall-view";

export const dynamic = "force-dynamic";

export const GET = withApi(getMulticallPayoutOp, async ({ principal, params }) =>
  json(await getMulticallForAccount(principal.accountId, params.token)),
);
