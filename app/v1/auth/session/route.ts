import { describeSession } from "@/lib/auth/sessions";
import { json, withApi } from "@/lib/http/handler";
import { currentSessionOp } from "@/lib/operations/auth";

export const dynamic = "force-dynamic";

export const GET = withApi(currentSessionOp, async ({ principal }) => json(await describeSession(principal)));
