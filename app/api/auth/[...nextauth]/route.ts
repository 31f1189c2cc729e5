import NextAuth from "next-auth";
import { exportNextAuthUrl } from "@/lib/env";
import { authOptions } from "@/lib/http/next-auth";
import { setSessionCookie } from "@/lib/http/page-session";

export const dynamic = "force-dynamic";

/**
 * next-auth's routes (/api/auth/csrf, /providers, /session, /callback/{provider}, /signout):
 * page sign-in on the one session store (lib/http/next-auth.ts). A sign-in also sets the /v1
 * cookie of the same Session row, so the browser's same-origin /v1 calls name the same session.
 */
async function handler(req: Request, ctx: { params: Promise<{ nextauth: string[] }> }): Promise<Response> {
  exportNextAuthUrl();
  return NextAuth(req as never, ctx as never, authOptions(setSessionCookie)) as Promise<Response>;
}

export const GET = handler;
export const POST = handler;
