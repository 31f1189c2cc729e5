import { json, withApi } from "@/lib/http/handler";
import { multicallPayoutsOp } from "@/lib/operations/secure-payment-tools";
import { createMulticallPayout } from "@/lib/secure-payments/multicall";

export const dynamic = "force-dynamic";

export const POST = withApi(multicallPayoutsOp, async ({ principal, body }) => json(await createMulticallPayout(principal, body), 201));
