import { json, withApi } from "@/lib/http/handler";
import { setSchedulePolicyOp } from "@/lib/operations/dunning";
import { putScheduleDunningPolicy } from "@/lib/recurring/dunning-settings";

export const dynamic = "force-dynamic";

export const PUT = withApi(setSchedulePolicyOp, async ({ principal, params, body }) =>
  json(await putScheduleDunningPolicy(principal, params.id, body)),
);
