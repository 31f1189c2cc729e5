import { describe, expect, it } from "vitest";
import { z } from "zod";
import { exampleParameter, exampleRequest, exampleResponse } from "@/lib/openapi/examples";
import { curlSnippet } from "@/lib/openapi/snippets";
import { OPERATIONS } from "@/lib/operations/index";

/**
 * Operations whose example request cannot pass their own body schema (a refinement the
 * generator cannot see), with the reason. Empty: every example request is a valid body.
 */
const KNOWN_INVALID: Record<string, string> = {};

const withBody = OPERATIONS.filter((op) => op.body);

describe("OpenAPI examples", () => {
  it.each(withBody.map((op) => [op.operationId, op] as const))("%s: the example request passes its own body schema", (id, op) => {
    const example = exampleRequest(op.body!);
    const result = op.body!.safeParse(example);
    if (KNOWN_INVALID[id]) expect(result.success, `${id} is listed as invalid: ${KNOWN_INVALID[id]}`).toBe(false);
    else expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
  });

  it("has an example response for every operation whose success answer has a body", () => {
    for (const op of OPERATIONS) {
      for (const [status, spec] of Object.entries(op.responses)) {
        if (Number(status) >= 300 || !spec.schema) continue;
        const example = exampleResponse(spec.schema);
        expect(example, `${op.operationId} ${status}`).not.toBeUndefined();
        expect(JSON.stringify(example), `${op.operationId} ${status}`).not.toBe("{}");
      }
    }
  });

  it("prefers .meta({ example }), then format, pattern and name, then type", () => {
    const schema = z.strictObject({
      amount: z.string().meta({ example: "12.50" }),
      email: z.string().email(),
      color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
      payee: z.string().min(1),
      count: z.number().int().min(3),
      kind: z.enum(["a", "b"]),
      nested: z.object({ on: z.boolean() }).optional(),
      list: z.array(z.string().max(3)).min(2),
    });
    const example = exampleRequest(schema) as Record<string, unknown>;
    expect(example).toMatchObject({ amount: "12.50", email: "jane@example.com", count: 3, kind: "a", nested: { on: false } });
    expect(example.payee).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(schema.safeParse(example).success).toBe(true);
    expect((example.list as string[]).length).toBe(2);
  });

  it("falls back to the required fields when optional ones exclude each other", () => {
    const schema = z
      .object({ id: z.string(), a: z.string().optional(), b: z.string().optional() })
      .refine((v) => !(v.a && v.b), "a and b exclude each other");
    expect(exampleRequest(schema)).toEqual({ id: "01JH3Q8Z6X9V2M4N7P5R8T1W3Y" });
  });

  it("builds a curl snippet with the operation's credential header and body", () => {
    const op = OPERATIONS.find((o) => o.operationId === "createRequest")!;
    const curl = curlSnippet({
      method: op.method,
      path: op.path,
      baseUrl: "http://localhost:3000",
      auth: op.auth,
      body: { note: "it's" },
      idempotent: true,
    });
    expect(curl).toContain("curl -X POST 'http://localhost:3000/v2/request'");
    expect(curl).toContain("-H 'x-api-key: <your API key>'");
    expect(curl).toContain("-H 'Idempotency-Key: <unique key>'");
    expect(curl).toContain(`"note": "it'\\''s"`);
    const session = curlSnippet({ method: "GET", path: "/v1/auth/session", baseUrl: "http://x", auth: ["session"] });
    expect(session).toBe("curl 'http://x/v1/auth/session' \\\n  -H 'Authorization: Bearer <session token>'");
    expect(exampleParameter("requestId", { type: "string" })).toMatch(/^01/);
  });
});
