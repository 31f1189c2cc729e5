/**
 * The one JSON POST of the sign-in and onboarding pages (same-origin, the session cookie along):
 * the status and the parsed body, never a throw for an API error (apiError words it).
 */
export async function postJson(path: string, body: unknown): Promise<{ ok: boolean; status: number; json: Record<string, unknown> }> {
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  return { ok: res.ok, status: res.status, json };
}

/** The API's error in one sentence: the field's message when it names one. */
export function apiError(json: Record<string, unknown>, status?: number): string {
  const errors = json.errors as { field: string; message: string }[] | undefined;
  if (errors?.[0]) return `${errors[0].field}: ${errors[0].message}`;
  if (typeof json.message === "string") return json.message;
  return status ? `Request failed (${status})` : "Something went wrong. Please try again.";
}
