import { GET as payLink } from "@/app/v2/secure-payments/[token]/pay/route";
import { withApi } from "@/lib/http/handler";
import { securePaymentCalldataOp } from "@/lib/operations/secure-payment-tools";

export const dynamic = "force-dynamic";

/** GET /{token}/pay's own handler with the body as its query: one plan, whichever way it is asked for. */
export const POST = withApi(securePaymentCalldataOp, async (ctx) =>
  payLink.serve({ ...ctx, query: ctx.body } as Parameters<typeof payLink.serve>[0]),
);
