import { describeSession } from "@/lib/auth/sessions";
import { currentSessionOp } from "@/lib/contracts/auth";
import { json, withApi } from "@/lib/http/handler";

export const dynamic = "force-dynamic";

export const GET = withApi(currentSessionOp, async ({ principal }) => json(await describeSession(principal)));
