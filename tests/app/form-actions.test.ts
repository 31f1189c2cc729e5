/**
 * The dashboard's and admin's forms, through their server actions against the real database, as a
 * merchant who mistypes: every refusal names the form's field in words (never `requests.0.amount:`),
 * gives back what was typed, and an empty required field says "required". The browser checks the
 * same schemas first (tests/app/form-check.test.ts); this is the server's half.
 */
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
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { issueOrchestratorKeyAction } from "@/app/admin/actions";
import { createClientIdAction, createKeyAction } from "@/app/dashboard/keys/actions";
import { createLinkAction } from "@/app/dashboard/links/actions";
import { setFeeAction } from "@/app/dashboard/settings/actions";
import { registerWebhookAction } from "@/app/dashboard/webhooks/actions";
import { signInWithPassword } from "@/app/sign-in/actions";
import { hashPassword } from "@/lib/auth/passwords";
import { createSession, SESSION_COOKIE } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { checkForm } from "@/lib/forms/form-state";
import { LINK_FORM_FIELDS, linkFormBody, linkFormSchema } from "@/lib/forms/link-form";
import { prefixedId, ulid } from "@/lib/ids";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};
const none = { error: null };
let accountId = "";
let clientId = "";

beforeAll(async () => {
  await resetDb();
  const a = await makeIntegrator();
  accountId = a.account.id;
  clientId = a.clientId;
  const user = await db().user.create({
    data: {
      id: prefixedId("usr_"),
      accountId,
      email: `f-${ulid()}@forms.test`,
      passwordHash: await hashPassword("correct-horse-1"),
      isAdmin: true,
    },
  });
  jar.set(SESSION_COOKIE, (await createSession(user, "email")).token);
  await db().payeeDestination.create({
    data: {
      id: `dest-f-${ulid()}`,
      accountId,
      walletAddress: "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65",
      network: "base",
      chainId: 8453,
      tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      tokenSymbol: "USDC",
    },
  });
});

describe("the link form's action", () => {
  const typed = { amount: "", reference: "INV-7", description: "Two mugs", redirectUrl: "" };

  it("an empty amount is required; everything typed comes back", async () => {
    const out = await createLinkAction(none, form(typed));
    expect(out).toMatchObject({
      error: "Amount is required",
      field: "amount",
      fieldErrors: { amount: "Amount is required" },
      values: typed,
    });
  });

  it("a 44-digit amount is bounded, in words, and nothing is created", async () => {
    const before = await db().securePayment.count({ where: { accountId } });
    const out = await createLinkAction(none, form({ ...typed, amount: "1".repeat(44) }));
    // The destination's currency (USDC: 6 decimals) bounds it, as the browser's check does.
    expect(out.fieldErrors).toEqual({ amount: "Amount: at most 18 digits before the point and 6 after" });
    expect(out.error).not.toMatch(/requests\.0/);
    expect(await db().securePayment.count({ where: { accountId } })).toBe(before);
  });

  it("the currency's decimals: the action checks the browser's schema (linkFormSchema(6)) and says the same words", async () => {
    for (const amount of ["1.1234567", "1".repeat(19), "0", "12,50", ""]) {
      const values = { ...typed, amount };
      const browser = checkForm(linkFormSchema(6), linkFormBody(values), LINK_FORM_FIELDS);
      expect(browser.ok, amount).toBe(false);
      const out = await createLinkAction(none, form(values));
      expect(out.fieldErrors, amount).toEqual(browser.ok ? undefined : browser.fieldErrors);
      expect(out).toMatchObject({ field: "amount", values: { amount } });
    }
    const out = await createLinkAction(none, form({ ...typed, amount: "1.1234567" }));
    expect(out.error).toBe("Amount: at most 18 digits before the point and 6 after");
  });

  it("a valid form makes the link", async () => {
    const out = await createLinkAction(none, form({ ...typed, amount: "12.50" }));
    expect(out.error).toBeNull();
    expect(out.created?.url).toMatch(/\/pay\//);
  });
});

describe("the key, client ID, webhook, fee, admin and sign-in actions", () => {
  it("a 300-character API key name is refused in words and kept", async () => {
    const name = "k".repeat(300);
    expect(await createKeyAction(none, form({ name }))).toMatchObject({ error: "Name: at most 100 characters", values: { name } });
    expect(await db().apiKey.count({ where: { accountId, name } })).toBe(0);
  });

  it("a client ID: label required, a bad origin named as 'Allowed origins'", async () => {
    expect(await createClientIdAction(none, form({ label: "", allowedDomains: "https://a.example" }))).toMatchObject({
      error: "Label is required",
      values: { label: "", allowedDomains: "https://a.example" },
    });
    const out = await createClientIdAction(none, form({ label: "Shop", allowedDomains: "http://shop.example" }));
    expect(out.field).toBe("allowedDomains");
    expect(out.error).toMatch(/^Allowed origins/);
    expect(out.values).toEqual({ label: "Shop", allowedDomains: "http://shop.example" });
  });

  it("a webhook: a URL is required; a private address is refused under the URL, both kept", async () => {
    expect(await registerWebhookAction(none, form({ url: "", clientId }))).toMatchObject({
      error: "Endpoint URL is required",
      values: { clientId },
    });
    const out = await registerWebhookAction(none, form({ url: "https://127.0.0.1/hook", clientId }));
    expect(out.field).toBe("url");
    expect(out.error).toMatch(/^Endpoint URL/);
    expect(out.values).toEqual({ url: "https://127.0.0.1/hook", clientId });
  });

  it("the fee: basis points in words, a bad checksum (the domain's check) under the EVM address", async () => {
    const typed = { bps: "abc", cap: "", bearer: "payer", label: "", evm: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", tron: "" };
    expect(await setFeeAction(none, form(typed))).toMatchObject({
      error: "Fee (basis points) must be an integer from 0 to 10000",
      values: typed,
    });
    const badChecksum = { ...typed, bps: "250", evm: "0x70997970c51812dc3a010c7d01b50e0d17dc79C8" };
    expect(await setFeeAction(none, form(badChecksum))).toMatchObject({
      error: "Fee address (EVM) must be a checksummed 0x address",
      field: "evm",
      values: badChecksum,
    });
  });

  it("a NUL in a text field is a refusal naming the field, as for any API body (never a database error)", async () => {
    const typed = { bps: "100", cap: "", bearer: "payer", label: "Fee\u0000", evm: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", tron: "" };
    expect(await setFeeAction(none, form(typed))).toMatchObject({ field: "label", values: typed });
    expect(await createKeyAction(none, form({ name: "key\u0000" }))).toMatchObject({ field: "name" });
  });

  it("the orchestrator key's name is bounded as the API key's", async () => {
    const out = await issueOrchestratorKeyAction(none, form({ accountId, name: "o".repeat(101) }));
    expect(out).toMatchObject({ error: "Key name: at most 100 characters", field: "name" });
  });

  it("sign-in: the email and password in words, the email given back", async () => {
    const out = await signInWithPassword(none, form({ email: "someone@x.test", password: "short" }));
    expect(out).toMatchObject({ error: "Password must be 8 to 100 characters", field: "password", email: "someone@x.test" });
    expect((await signInWithPassword(none, form({ email: "", password: "" }))).fieldErrors).toEqual({
      email: "Email is required",
      password: "Password is required",
    });
  });
});
