import type { RouteHandler } from "@/lib/http/handler";

/** Calls a route handler the way Next does, with a real Request. */
export async function call(
  handler: RouteHandler,
  url: string,
  init: RequestInit & { params?: Record<string, string>; json?: unknown } = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests assert response bodies field by field
): Promise<{ status: number; body: any; headers: Headers }> {
  const { params, json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined) headers.set("content-type", "application/json");
  const req = new Request(new URL(url, "http://localhost:3000"), {
    ...rest,
    headers,
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
  const res = await handler(req, { params: Promise.resolve(params ?? {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}
