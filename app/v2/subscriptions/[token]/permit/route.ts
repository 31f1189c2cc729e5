import { json, withApi } from "@/lib/http/handler";
import { renewSubscriptionPermitOp, subscriptionPermitOp } from "@/lib/operations/subscriptions";
import { permitRenewalView, renewPermit } from "@/lib/recurring/permit-renewal";

export const dynamic = "force-dynamic";

export const GET = withApi(subscriptionPermitOp, async ({ params }) => json(await permitRenewalView(params.token)));

export const POST = withApi(renewSubscriptionPermitOp, async ({ params, body }) => json(await renewPermit(params.token, body)));
