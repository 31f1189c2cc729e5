import { multicallPayoutsOp } from "@/lib/contracts/secure-payment-tools";
import { json, withApi } from "@/lib/http/handler";
import { createMulticallPayout } from "@/lib/secure-payments/multicall";

export const dynamic = "force-dynamic";

export const POST = withApi(multicallPayoutsOp, async ({ principal, body }) => json(await createMulticallPayout(principal, body), 201));
