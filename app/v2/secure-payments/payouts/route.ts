import { json, withApi } from "@/lib/api/handler";
import { createPayoutLink } from "@/lib/secure-payments/create-secure-payment";
import { createPayoutLinkOp } from "@/lib/secure-payments/operations";

export const dynamic = "force-dynamic";

export const POST = withApi(createPayoutLinkOp, async ({ principal, body }) => json(await createPayoutLink(principal, body), 201));
