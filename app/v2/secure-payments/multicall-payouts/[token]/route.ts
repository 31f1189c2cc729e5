import { getMulticallPayoutOp } from "@/lib/contracts/secure-payment-tools";
import { json, withApi } from "@/lib/http/handler";
import { getMulticallForAccount } from "@/lib/secure-payments/multicall-view";

export const dynamic = "force-dynamic";

export const GET = withApi(getMulticallPayoutOp, async ({ principal, params }) =>
  json(await getMulticallForAccount(principal.accountId, params.token)),
);
