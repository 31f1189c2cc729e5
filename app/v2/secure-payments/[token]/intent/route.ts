import { json, withApi } from "@/lib/http/handler";
import { linkIntentOp } from "@/lib/operations/secure-payments";
import { recordIntent } from "@/lib/secure-payments/intent";

export const dynamic = "force-dynamic";

export const POST = withApi(linkIntentOp, async ({ params, body }) => json(await recordIntent(params.token, body)));
