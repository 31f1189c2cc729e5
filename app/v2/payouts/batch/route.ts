import { json, withApi } from "@/lib/http/handler";
import { createBatchPayoutOp } from "@/lib/operations/payouts";
import { createBatchPayout } from "@/lib/payouts/create-batch-payout";

export const dynamic = "force-dynamic";

export const POST = withApi(createBatchPayoutOp, async ({ principal, body }) => json(await createBatchPayout(principal, body), 201));
