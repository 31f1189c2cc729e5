import { json, withApi } from "@/lib/http/handler";
import { createRefundOp, listRefundsOp } from "@/lib/operations/refunds";
import { listRefunds, prepareRefund } from "@/lib/refunds";

export const dynamic = "force-dynamic";

export const POST = withApi(createRefundOp, async ({ principal, params, body }) =>
  json(await prepareRefund(principal.accountId, params.requestId, body), 201),
);

export const GET = withApi(listRefundsOp, async ({ principal, params }) => json(await listRefunds(principal.accountId, params.requestId)));
