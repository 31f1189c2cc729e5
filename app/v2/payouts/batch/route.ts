import { json, withApi } from "@/lib/api/handler";
import { createBatchPayout } from "@/lib/payouts/create-batch-payout";
import { createBatchPayoutOp } from "@/lib/payouts/operations";

export const dynamic = "force-dynamic";

export const POST = withApi(createBatchPayoutOp, async ({ principal, body }) => json(await createBatchPayout(principal, body), 201));
