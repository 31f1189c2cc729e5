import { json, withApi } from "@/lib/http/handler";
import { x402SupportedOp } from "@/lib/operations/x402";
import { supportedKinds } from "@/lib/x402/supported";

export const dynamic = "force-dynamic";

export const GET = withApi(x402SupportedOp, async () => json(supportedKinds()));
