/**
 * The dashboard's Payments page (app/dashboard/payments/page.tsx), rendered on the server against
 * the real database: its filters are GET /v2/payments' query, with the API's bounds. An over-long
 * reference (pasted into the URL, past the input's maxLength) is refused naming the field in words,
 * before any query; each input carries the schema's maxLength; the pager counts pages from 1.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
    delete: (name: string) => void jar.delete(name),
  }),
  headers: async () => new Headers({ "x-forwarded-for": "203.0.113.9" }),
}));

import PaymentsPage from "@/app/dashboard/payments/page";
import { createSession, SESSION_COOKIE } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { maxLengthOf } from "@/lib/forms/form-state";
import { prefixedId, ulid } from "@/lib/ids";
import { searchPaymentsQuery } from "@/lib/operations/payments";
import * as search from "@/lib/requests/search-payments";
import { resetDb } from "@/tests/helpers/db";
import { insertPaidRequest, makeIntegrator } from "@/tests/helpers/factories";

let accountId = "";

beforeAll(async () => {
  await resetDb();
  const a = await makeIntegrator();
  accountId = a.account.id;
  const user = await db().user.create({ data: { id: prefixedId("usr_"), accountId, email: `p-${ulid()}@payments.test` } });
  jar.set(SESSION_COOKIE, (await createSession(user, "email")).token);
  for (let i = 0; i < 23; i++) await insertPaidRequest(accountId, "USDC-base", 1_000_000n, 1, { reference: `PAGE-${i}` });
});

const render = async (params: Record<string, string>) =>
  renderToStaticMarkup(createElement("div", null, await PaymentsPage({ searchParams: Promise.resolve(params) })));

describe("the Payments page's filters", () => {
  it("refuses a 10 000-character reference in words, without searching (no ILIKE, no 500)", async () => {
    const spy = vi.spyOn(search, "searchPayments");
    const html = await render({ reference: "x".repeat(10_000) });
    expect(html).toContain("Your reference: at most 255 characters");
    expect(spy).not.toHaveBeenCalled();
    expect(html).not.toContain('data-testid="payments"');
    spy.mockRestore();
  });

  it("names the direction in words when it is neither", async () => {
    expect(await render({ direction: "sideways" })).toContain("Direction must be incoming or outgoing");
  });

  it("gives each input the API's maxLength", async () => {
    const html = await render({});
    for (const [name, max] of [
      ["reference", 255],
      ["walletAddress", 100],
      ["txHash", 100],
      ["fromDate", 40],
      ["network", 32],
    ] as const) {
      expect(maxLengthOf(searchPaymentsQuery.shape[name])).toBe(max);
      const tag = html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0] ?? "";
      expect(tag).toContain(`maxLength="${max}"`);
    }
  });

  it("pages from 1 with the shared pager: 23 payments are 2 pages", async () => {
    const first = await render({});
    expect(first).toContain("Page 1 of 2");
    expect(first).toMatch(/<a[^>]*href="\/dashboard\/payments\?page=2"[^>]*>Older/);
    expect(first).not.toContain("Newer");
    const second = await render({ page: "2" });
    expect(second).toContain("PAGE-0");
    expect(second).toContain("Page 2 of 2");
    expect(second).toMatch(/<a[^>]*href="\/dashboard\/payments\?"[^>]*>← Newer/);
  });
});
