import { json, withApi } from "@/lib/http/handler";
import { createPayoutOp } from "@/lib/operations/payouts";
import { createPayout } from "@/lib/payouts/create-payout";

export const dynamic = "force-dynamic";

export const POST = withApi(createPayoutOp, async ({ principal, body }) => json(await createPayout(principal, body), 201));
