import { json, withApi } from "@/lib/http/handler";
import { batchPayoutsOp } from "@/lib/operations/secure-payment-tools";
import { createBatchPayoutLink } from "@/lib/secure-payments/batch-payouts";

export const dynamic = "force-dynamic";

export const POST = withApi(batchPayoutsOp, async ({ principal, body }) => json(await createBatchPayoutLink(principal, body), 201));
