/**
 * The fee and branding forms of /admin/accounts/[id], driven through their server actions as an
 * operator: the admin CLI's lib functions (setFeeConfig, clearFeeConfig, setAccountBrand) with its
 * rules — a bad input answers in words naming the field and gives back what was typed, nothing is
 * written — and the audit log names the change as the CLI does (fee:set, fee:clear, account:brand).
 * One case runs the CLI itself on the same bad input: the same field is refused for the same reason.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

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

import { clearAccountFeeAction, setAccountBrandAction, setAccountFeeAction } from "@/app/admin/accounts/[id]/actions";
import { setAccountBrand } from "@/lib/accounts/issue-credentials";
import { createSession, SESSION_COOKIE } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { BRAND_FORM_FIELDS, BRAND_MAX_LENGTHS, brandFormBody, brandFormSchema } from "@/lib/forms/brand-form";
import { checkForm } from "@/lib/forms/form-state";
import { prefixedId } from "@/lib/ids";
import { resetDb } from "@/tests/helpers/db";
import { makeAccount } from "@/tests/helpers/factories";
import { testDatabaseUrl } from "@/tests/helpers/test-db-url";

const FEE_WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const none = { error: null };
const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

let accountId = "";
let operatorId = "";

beforeEach(async () => {
  await resetDb();
  accountId = (await makeAccount("Merchant Co")).id;
  const opAccount = await makeAccount("Operators");
  const op = await db().user.create({ data: { id: prefixedId("usr_"), accountId: opAccount.id, email: "op@ops.test", isAdmin: true } });
  operatorId = op.id;
  jar.set(SESSION_COOKIE, (await createSession(op, "email")).token);
});
afterEach(() => jar.clear());

const audit = () => db().adminAuditEntry.findMany({ where: { accountId }, orderBy: { createdAt: "asc" } });
const fees = () => db().feeConfig.findMany({ where: { accountId, active: true } });
const goodFee = { accountId, flow: "get_paid", bps: "250", cap: "5", bearer: "payer", evm: FEE_WALLET, tron: "", label: "Platform fee" };

describe("fee form (fee:set / fee:clear)", () => {
  it("refuses each bad field in words, keeps the input, writes nothing, and logs the refused attempt", async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ bps: "20000" }, "bps", "Fee (basis points) must be an integer from 0 to 10000"],
      [{ bps: "2.5" }, "bps", "Fee (basis points) must be an integer from 0 to 10000"],
      [{ bps: "" }, "bps", "Fee (basis points) is required"],
      [{ cap: "five" }, "cap", "Cap (USD) must be a USD amount such as 5 or 2.50"],
      [{ evm: "0x123" }, "evm", "Fee address (EVM) must be a checksummed 0x address"],
      [{ evm: "", tron: "" }, "evm", "Fee address (EVM) is required: a fee needs a receiving address (EVM and/or Tron)"],
      [{ tron: "Tnope" }, "tron", "Fee address (Tron) must be a Tron base58 address"],
      // The form's shape passes; setFeeConfig's EIP-55 check (server only) refuses it, in the same words.
      [{ evm: "0x70997970c51812dc3A010C7d01b50e0d17dc79C8" }, "evm", "Fee address (EVM) must be a checksummed 0x address"],
      [{ label: "x".repeat(61) }, "label", "Label shown to payers must be at most 60 characters"],
      [{ flow: "sideways" }, "flow", "Flow must be get_paid or pay"],
      [{ bearer: "nobody" }, "bearer", "Paid by must be payer or payee"],
    ];
    for (const [bad, field, error] of cases) {
      const input = { ...goodFee, accountId, ...bad };
      const out = await setAccountFeeAction(none, form(input));
      expect(out, JSON.stringify(bad)).toMatchObject({ error, field });
      const { accountId: _, ...typed } = input;
      expect(out.values).toEqual(typed);
    }
    expect(await fees()).toHaveLength(0);
    const log = await audit();
    expect(log.map((e) => e.action)).toEqual(Array(cases.length).fill("fee:set.refused"));
    expect(log[0]).toMatchObject({ actor: expect.stringContaining(operatorId), target: accountId });
  });

  it("sets the fee (replacing the active one) and removes it, each in the audit log under the CLI's name", async () => {
    expect(await setAccountFeeAction(none, form({ ...goodFee, accountId }))).toMatchObject({ error: null, done: expect.any(String) });
    expect(await setAccountFeeAction(none, form({ ...goodFee, accountId, bps: "300", cap: "" }))).toMatchObject({ error: null });
    const [fee, ...rest] = await fees();
    expect(rest).toHaveLength(0);
    expect(fee).toMatchObject({ flow: "get_paid", percentageBps: 300, capUsd: null, feeBearer: "payer", evmAddress: FEE_WALLET });
    await setAccountFeeAction(none, form({ ...goodFee, accountId, flow: "pay", bearer: "payee" }));
    expect((await fees()).map((f) => f.flow).sort()).toEqual(["get_paid", "pay"]);
    await clearAccountFeeAction(form({ accountId, flow: "get_paid" }));
    expect((await fees()).map((f) => f.flow)).toEqual(["pay"]);
    const log = await audit();
    expect(log.map((e) => e.action)).toEqual(["fee:set", "fee:set", "fee:set", "fee:clear"]);
    expect(log[1]!.details).toMatchObject({ bps: "300", evm: FEE_WALLET });
    expect(log[3]!.details).toEqual({ flow: "get_paid" });
  });

  it("the CLI refuses the same input for the same field and reason, and audits its change under the same action", async () => {
    const cli = (args: string[]) => {
      const r = spawnSync(process.execPath, ["--import", "tsx", path.join("scripts/ops/admin.ts"), ...args, "--json"], {
        cwd: process.cwd(),
        env: { ...process.env, DATABASE_URL: testDatabaseUrl(), LOG_LEVEL: "silent" },
        encoding: "utf8",
        timeout: 60_000,
      });
      return JSON.parse(r.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
    };
    const bad = cli(["fee:set", "--account", accountId, "--flow", "get_paid", "--bps", "20000", "--evm", FEE_WALLET]);
    expect(bad.error).toContain("bps: must be an integer from 0 to 10000");
    const ui = await setAccountFeeAction(none, form({ ...goodFee, accountId, bps: "20000" }));
    expect(ui).toMatchObject({ field: "bps", error: "Fee (basis points) must be an integer from 0 to 10000" });
    cli(["fee:set", "--account", accountId, "--flow", "get_paid", "--bps", "100", "--evm", FEE_WALLET]);
    const entries = await audit();
    expect(entries.filter((e) => !e.action.endsWith(".refused")).map((e) => [e.action, e.target, e.accountId])).toEqual([
      ["fee:set", accountId, accountId],
    ]);
    expect(entries.at(-1)!.actor).toMatch(/^cli /);
  }, 90_000);
});

describe("branding form (account:brand)", () => {
  it("refuses a bad name or logo naming the field, keeps the input; saves name and logo; an empty logo removes it", async () => {
    const long = await setAccountBrandAction(none, form({ accountId, name: "x".repeat(201), logoUrl: "" }));
    expect(long).toMatchObject({ field: "name", error: "Display name must be 1–200 characters", values: { name: "x".repeat(201) } });
    const http = await setAccountBrandAction(none, form({ accountId, name: "Coffee Roasters", logoUrl: "http://cdn.example/logo.png" }));
    expect(http).toMatchObject({ field: "logoUrl", error: "Logo URL must be an https URL" });
    expect(http.values).toEqual({ name: "Coffee Roasters", logoUrl: "http://cdn.example/logo.png" });
    expect(await db().account.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({ name: "Merchant Co", logoUrl: null });

    const ok = await setAccountBrandAction(none, form({ accountId, name: " Coffee Roasters ", logoUrl: "https://cdn.example/logo.png" }));
    expect(ok).toMatchObject({ error: null });
    expect(await db().account.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({
      name: "Coffee Roasters",
      logoUrl: "https://cdn.example/logo.png",
    });
    await setAccountBrandAction(none, form({ accountId, name: "Coffee Roasters", logoUrl: "" }));
    expect((await db().account.findUniqueOrThrow({ where: { id: accountId } })).logoUrl).toBeNull();
    expect((await audit()).map((e) => e.action)).toEqual([
      "account:brand.refused",
      "account:brand.refused",
      "account:brand",
      "account:brand",
    ]);
  });

  it("the browser's check (lib/forms/brand-form.ts) and setAccountBrand share one set of limits", async () => {
    const body = (name: string, logoUrl: string) => brandFormBody({ name, logoUrl });
    const fields = (name: string, logoUrl: string) => {
      const r = checkForm(brandFormSchema, body(name, logoUrl), BRAND_FORM_FIELDS);
      return r.ok ? {} : r.fieldErrors;
    };
    const longLogo = `https://cdn.example/${"l".repeat(BRAND_MAX_LENGTHS.logoUrl)}.png`;
    expect(fields("x".repeat(BRAND_MAX_LENGTHS.name), "")).toEqual({});
    expect(fields("x".repeat(BRAND_MAX_LENGTHS.name + 1), "")).toEqual({ name: "Display name must be 1–200 characters" });
    expect(fields("   ", "")).toEqual({ name: "Display name is required" });
    expect(fields("Shop", longLogo)).toEqual({ logoUrl: "Logo URL must be at most 2048 characters" });
    expect(fields("Shop", "ftp://cdn.example/l.png")).toEqual({ logoUrl: "Logo URL must be an https URL" });
    await expect(setAccountBrand(accountId, { name: "x".repeat(BRAND_MAX_LENGTHS.name + 1) })).rejects.toThrow();
    await expect(setAccountBrand(accountId, { logoUrl: longLogo })).rejects.toThrow();
    await expect(setAccountBrand(accountId, { name: "x".repeat(BRAND_MAX_LENGTHS.name) })).resolves.toBeTruthy();
  });

  it("refuses a non-operator and a signed-out caller, changing nothing", async () => {
    const plain = await db().user.create({ data: { id: prefixedId("usr_"), accountId, email: "merchant@x.test" } });
    jar.set(SESSION_COOKIE, (await createSession(plain, "email")).token);
    expect(await setAccountBrandAction(none, form({ accountId, name: "Hijacked", logoUrl: "" }))).toMatchObject({
      error: "Operators only",
    });
    expect(await setAccountFeeAction(none, form({ ...goodFee, accountId }))).toMatchObject({ error: "Operators only" });
    await expect(clearAccountFeeAction(form({ accountId, flow: "get_paid" }))).rejects.toThrow("Operators only");
    jar.clear();
    expect((await setAccountBrandAction(none, form({ accountId, name: "Hijacked", logoUrl: "" }))).error).toMatch(/session has ended/);
    expect((await db().account.findUniqueOrThrow({ where: { id: accountId } })).name).toBe("Merchant Co");
    expect(await fees()).toHaveLength(0);
  });
});
