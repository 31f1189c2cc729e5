import { withApi } from "@/lib/http/handler";
import { x402RequestOp } from "@/lib/operations/x402";
import { requestTarget, serveX402 } from "@/lib/x402/resource";

export const dynamic = "force-dynamic";

export const GET = withApi(x402RequestOp, async ({ req, params }) => serveX402(req, await requestTarget(params.requestId)));
