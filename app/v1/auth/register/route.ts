import { json, withApi } from "@/lib/api/handler";
import { register } from "@/lib/auth/email-signin";
import { registerOp } from "@/lib/auth/operations";

export const dynamic = "force-dynamic";

export const POST = withApi(registerOp, async ({ body }) => json(await register(body.email, body.password), 201));
