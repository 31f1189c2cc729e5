import { principalKey } from "@/lib/auth/principal";
import { json, withApi } from "@/lib/http/handler";
import { completeOnboardingOp } from "@/lib/operations/orchestrators";
import { completeLinkIntent } from "@/lib/orchestrators/link-intents";

export const dynamic = "force-dynamic";

export const POST = withApi(completeOnboardingOp, async ({ principal, body }) =>
  json(await completeLinkIntent(body.token, principal.accountId, body.kyt, principalKey(principal)), 201),
);
