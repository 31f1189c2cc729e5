import { withApi } from "@/lib/http/handler";
import { x402LinkOp } from "@/lib/operations/x402";
import { linkTarget, serveX402 } from "@/lib/x402/resource";

export const dynamic = "force-dynamic";

export const GET = withApi(x402LinkOp, async ({ req, params }) => serveX402(req, await linkTarget(params.token)));
