import { register } from "@/lib/auth/sign-in/email";
import { json, withApi } from "@/lib/http/handler";
import { registerOp } from "@/lib/operations/auth";

export const dynamic = "force-dynamic";

export const POST = withApi(registerOp, async ({ body }) => json(await register(body.email, body.password), 201));
