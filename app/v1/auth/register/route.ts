import { register } from "@/lib/auth/sign-in/email";
import { registerOp } from "@/lib/contracts/auth";
import { json, withApi } from "@/lib/http/handler";

export const dynamic = "force-dynamic";

export const POST = withApi(registerOp, async ({ body }) => json(await register(body.email, body.password), 201));
