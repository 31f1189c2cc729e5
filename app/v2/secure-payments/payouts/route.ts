import { createPayoutLinkOp } from "@/lib/contracts/secure-payments";
import { json, withApi } from "@/lib/http/handler";
import { createPayoutLink } from "@/lib/secure-payments/create-secure-payment";

export const dynamic = "force-dynamic";

export const POST = withApi(createPayoutLinkOp, async ({ principal, body }) => json(await createPayoutLink(principal, body), 201));
