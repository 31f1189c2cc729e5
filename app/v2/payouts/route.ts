import { json, withApi } from "@/lib/api/handler";
import { createPayout } from "@/lib/payouts/create-payout";
import { createPayoutOp } from "@/lib/payouts/operations";

export const dynamic = "force-dynamic";

export const POST = withApi(createPayoutOp, async ({ principal, body }) => json(await createPayout(principal, body), 201));
