import { json, withApi } from "@/lib/http/handler";
import { getDunningPolicyOp, setDunningPolicyOp } from "@/lib/operations/dunning";
import { getAccountDunningPolicy, putAccountDunningPolicy } from "@/lib/recurring/dunning-settings";

export const dynamic = "force-dynamic";

export const GET = withApi(getDunningPolicyOp, async ({ principal }) => json(await getAccountDunningPolicy(principal)));

export const PUT = withApi(setDunningPolicyOp, async ({ principal, body }) => json(await putAccountDunningPolicy(principal, body)));
