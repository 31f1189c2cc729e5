import { createBatchPayoutOp } from "@/lib/contracts/payouts";
import { json, withApi } from "@/lib/http/handler";
import { createBatchPayout } from "@/lib/payouts/create-batch-payout";

export const dynamic = "force-dynamic";

export const POST = withApi(createBatchPayoutOp, async ({ principal, body }) => json(await createBatchPayout(principal, body), 201));
