import { json, withApi } from "@/lib/api/handler";
import { currentSessionOp } from "@/lib/auth/operations";
import { describeSession } from "@/lib/auth/sessions";

export const dynamic = "force-dynamic";

export const GET = withApi(currentSessionOp, async ({ principal }) => json(await describeSession(principal)));
