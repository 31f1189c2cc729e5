import { linkIntentOp } from "@/lib/contracts/secure-payments";
import { json, withApi } from "@/lib/http/handler";
import { recordIntent } from "@/lib/secure-payments/intent";

export const dynamic = "force-dynamic";

export const POST = withApi(linkIntentOp, async ({ params, body }) => json(await recordIntent(params.token, body)));
