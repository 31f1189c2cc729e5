/**
 * Every server action of the pages, tried as the wrong person: a user of account B on account A's
 * objects (nothing of A changes, nothing of A is returned), signed out, with a wallet session idle
 * for 15 minutes (injected clock), and — for /admin actions — as a signed-in non-admin. Each action
 * file's exports are registered here: a new action without a case fails the registry test.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
    delete: (name: string) => void jar.delete(name),
  }),
  headers: async () => new Headers({ "x-forwarded-for": "203.0.113.7" }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    throw Object.assign(new Error(`NEXT_REDIRECT ${url}`), { digest: "NEXT_REDIRECT" });
  },
  notFound: () => {
    throw Object.assign(new Error("NEXT_NOT_FOUND"), { digest: "NEXT_NOT_FOUND" });
  },
}));

import * as adminAccountActions from "@/app/admin/accounts/[id]/actions";
import * as adminActions from "@/app/admin/actions";
import * as keyActions from "@/app/dashboard/keys/actions";
import * as linkActions from "@/app/dashboard/links/actions";
import * as recurringActions from "@/app/dashboard/recurring/actions";
import * as requestActions from "@/app/dashboard/requests/actions";
import * as settingsActions from "@/app/dashboard/settings/actions";
import * as webhookActions from "@/app/dashboard/webhooks/actions";
import * as signInActions from "@/app/sign-in/actions";
import { hashPassword } from "@/lib/auth/passwords";
import { createSession, SESSION_COOKIE } from "@/lib/auth/sessions";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { prefixedId, ulid } from "@/lib/ids";
import { insertRefund } from "@/lib/refunds";
import { resetDb } from "@/tests/helpers/db";
import { insertPaidRequest, makeIntegrator, recurringScheduleOf } from "@/tests/helpers/factories";

type Integrator = Awaited<ReturnType<typeof makeIntegrator>>;
let a: Integrator;
let b: Integrator;
const ids: Record<string, string> = {};
let tokenA = "";
let tokenB = "";
let walletTokenA = "";

async function userOf(accountId: string, email: string, isAdmin = false) {
  return db().user.create({
    data: { id: prefixedId("usr_"), accountId, email, passwordHash: await hashPassword("correct-horse-1"), isAdmin },
  });
}

/** A snapshot of everything of account A an action could touch. */
async function snapshotA() {
  const [keys, orch, clients, hooks, deliveries, schedules, dests, fees, sessions, links, clientLinks, brand, refunds] = await Promise.all([
    db().apiKey.findMany({ where: { accountId: a.account.id }, orderBy: { id: "asc" } }),
    db().orchestratorKey.findMany({ where: { accountId: a.account.id }, orderBy: { id: "asc" } }),
    db().clientId.findMany({ where: { accountId: a.account.id }, orderBy: { id: "asc" } }),
    db().webhookEndpoint.findMany({ where: { accountId: a.account.id }, orderBy: { id: "asc" } }),
    db().webhookDelivery.findMany({ where: { endpoint: { accountId: a.account.id } }, orderBy: { id: "asc" } }),
    db().recurringSchedule.findMany({ where: { accountId: a.account.id }, orderBy: { id: "asc" } }),
    db().payeeDestination.findMany({ where: { accountId: a.account.id }, orderBy: { id: "asc" } }),
    db().feeConfig.findMany({ where: { accountId: a.account.id }, orderBy: { id: "asc" } }),
    db().session.findMany({ where: { accountId: a.account.id }, orderBy: { id: "asc" }, select: { id: true, revokedAt: true } }),
    db().securePayment.findMany({
      where: { accountId: a.account.id },
      orderBy: { token: "asc" },
      select: { token: true, status: true, expiresAt: true, cancelledAt: true },
    }),
    db().clientIdLink.findMany({ where: { client: { accountId: a.account.id } }, orderBy: { id: "asc" } }),
    db().account.findUnique({ where: { id: a.account.id }, select: { name: true, logoUrl: true, excessPolicy: true } }),
    db().refund.findMany({ where: { accountId: a.account.id }, orderBy: { id: "asc" } }),
  ]);
  return JSON.stringify({ keys, orch, clients, hooks, deliveries, schedules, dests, fees, sessions, links, clientLinks, brand, refunds });
}

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};
const none = { error: null };

/** Each action, aimed at account A's objects. `admin` actions also need an operator. */
const CASES: Record<string, { admin?: boolean; public?: boolean; call: () => Promise<unknown> }> = {
  "sign-in#signInWithPassword": {
    public: true,
    call: () => signInActions.signInWithPassword(none, form({ email: "a@x.test", password: "nope" })),
  },
  "sign-in#registerWithPassword": { public: true, call: () => signInActions.registerWithPassword(none, form({ email: "", password: "" })) },
  "sign-in#signOut": { public: true, call: () => signInActions.signOut() },
  "links#createLinkAction": { call: () => linkActions.createLinkAction(none, form({ amount: "5", reference: "B-LINK" })) },
  "links#cancelLinkAction": { call: () => linkActions.cancelLinkAction(none, form({ token: ids.linkA! })) },
  "keys#createKeyAction": { call: () => keyActions.createKeyAction(none, form({ name: "b key" })) },
  "keys#revokeKeyAction": { call: () => keyActions.revokeKeyAction(form({ id: ids.apiKeyA! })) },
  "keys#createClientIdAction": { call: () => keyActions.createClientIdAction(none, form({ label: "b", allowedDomains: "" })) },
  "keys#revokeClientIdAction": { call: () => keyActions.revokeClientIdAction(form({ id: ids.clientIdA! })) },
  "keys#endOrchestratorLinkAction": { call: () => keyActions.endOrchestratorLinkAction(form({ clientId: ids.linkedClientIdA! })) },
  "webhooks#registerWebhookAction": {
    call: () => webhookActions.registerWebhookAction(none, form({ url: "https://hooks.example/b", clientId: ids.clientIdA! })),
  },
  "webhooks#toggleWebhookAction": { call: () => webhookActions.toggleWebhookAction(form({ id: ids.webhookA! })) },
  "webhooks#deleteWebhookAction": { call: () => webhookActions.deleteWebhookAction(form({ id: ids.webhookA! })) },
  "webhooks#sendTestAction": {
    call: () => webhookActions.sendTestAction(none, form({ endpointId: ids.webhookA!, eventType: "payment.confirmed" })),
  },
  "webhooks#redeliverAction": {
    call: () => webhookActions.redeliverAction(form({ endpointId: ids.webhookA!, deliveryId: ids.deliveryA! })),
  },
  "recurring#manageRecurringAction": {
    call: async () => {
      for (const action of ["pause", "cancel"]) {
        const out = await recurringActions.manageRecurringAction(none, form({ id: ids.scheduleA!, action }));
        if (!out.error) return out;
      }
      return recurringActions.manageRecurringAction(none, form({ id: ids.scheduleA!, action: "cancel" }));
    },
  },
  "settings#setDestinationAction": {
    call: () => settingsActions.setDestinationAction(none, form({ currency: "USDC-base", walletAddress: ids.destinationWalletA! })),
  },
  "settings#destinationSigningDataAction": {
    call: () => settingsActions.destinationSigningDataAction({ currency: "USDC-base", walletAddress: ids.destinationWalletA! }),
  },
  "settings#tronDestinationMessageAction": {
    call: () =>
      settingsActions.tronDestinationMessageAction({ currency: "USDT-tron", walletAddress: "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW" }),
  },
  "settings#saveSignedDestinationAction": {
    call: () =>
      settingsActions.saveSignedDestinationAction({
        currency: "USDC-base",
        walletAddress: ids.destinationWalletA!,
        nonce: "0".repeat(32),
        signature: `0x${"11".repeat(65)}`,
      }),
  },
  "settings#deactivateDestinationAction": { call: () => settingsActions.deactivateDestinationAction(form({ id: ids.destinationA! })) },
  "settings#setFeeAction": {
    call: () =>
      settingsActions.setFeeAction(none, form({ bps: "100", bearer: "payer", evm: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" })),
  },
  "settings#clearFeeAction": { call: () => settingsActions.clearFeeAction() },
  "requests#prepareRefundAction": {
    call: () => requestActions.prepareRefundAction(none, form({ requestId: ids.paidA!, amount: "0.1", to: "" })),
  },
  "requests#refundPlanAction": { call: () => requestActions.refundPlanAction({ requestId: ids.paidA!, refundId: ids.refundA! }) },
  "requests#markRefundSentAction": {
    call: () => requestActions.markRefundSentAction({ requestId: ids.paidA!, refundId: ids.refundA!, txHash: `0x${"ab".repeat(32)}` }),
  },
  "requests#cancelRefundAction": {
    call: () => requestActions.cancelRefundAction(none, form({ requestId: ids.paidA!, refundId: ids.refundA! })),
  },
  "settings#setExcessPolicyAction": { call: () => settingsActions.setExcessPolicyAction(none, form({ policy: "keep" })) },
  "admin#issueOrchestratorKeyAction": {
    admin: true,
    call: () => adminActions.issueOrchestratorKeyAction(none, form({ accountId: a.account.id, name: "x" })),
  },
  "admin#revokeOrchestratorKeyAction": {
    admin: true,
    call: () => adminActions.revokeOrchestratorKeyAction(form({ id: ids.orchestratorKeyA! })),
  },
  "admin#revokeApiKeyAdminAction": { admin: true, call: () => adminActions.revokeApiKeyAdminAction(form({ id: ids.apiKeyA! })) },
  "admin#setClientIdStatusAction": {
    admin: true,
    call: () => adminActions.setClientIdStatusAction(form({ id: ids.clientIdA!, op: "restrict" })),
  },
  "admin#setTierAction": { admin: true, call: () => adminActions.setTierAction(form({ id: ids.clientIdA!, tier: "premium" })) },
  "admin#revokeUserSessionsAction": { admin: true, call: () => adminActions.revokeUserSessionsAction(form({ userId: ids.userA! })) },
  "admin-account#setAccountFeeAction": {
    admin: true,
    call: () =>
      adminAccountActions.setAccountFeeAction(
        none,
        form({ accountId: a.account.id, flow: "get_paid", bps: "900", bearer: "payer", evm: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" }),
      ),
  },
  "admin-account#clearAccountFeeAction": {
    admin: true,
    call: () => adminAccountActions.clearAccountFeeAction(form({ accountId: a.account.id, flow: "get_paid" })),
  },
  "admin-account#setAccountBrandAction": {
    admin: true,
    call: () => adminAccountActions.setAccountBrandAction(none, form({ accountId: a.account.id, name: "Taken over", logoUrl: "" })),
  },
};

const MODULES: Record<string, Record<string, unknown>> = {
  "sign-in": signInActions,
  links: linkActions,
  keys: keyActions,
  webhooks: webhookActions,
  recurring: recurringActions,
  requests: requestActions,
  settings: settingsActions,
  admin: adminActions,
  "admin-account": adminAccountActions,
};

/** Outcome of an action: thrown (refused) or returned state; a state with `error` is a refusal too. */
async function outcome(run: () => Promise<unknown>): Promise<{ refused: boolean; text: string }> {
  try {
    const out = await run();
    const refused = typeof out === "object" && out !== null && typeof (out as { error?: unknown }).error === "string";
    return { refused, text: JSON.stringify(out ?? null) };
  } catch (err) {
    return { refused: true, text: err instanceof Error ? err.message : String(err) };
  }
}

beforeAll(async () => {
  await resetDb();
  a = await makeIntegrator();
  b = await makeIntegrator();
  const userA = await userOf(a.account.id, `a-${ulid()}@dash.test`);
  const userB = await userOf(b.account.id, `b-${ulid()}@dash.test`);
  ids.userA = userA.id;
  tokenA = (await createSession(userA, "email")).token;
  tokenB = (await createSession(userB, "email")).token;
  const walletUser = await db().user.create({
    data: { id: prefixedId("usr_"), accountId: a.account.id, walletAddress: "0x90f79bf6eb2c4f870365e785982e1f101e93b906" },
  });
  walletTokenA = (await createSession(walletUser, "wallet")).token;
  ids.apiKeyA = a.apiKeyId;
  ids.clientIdA = a.clientId;
  // A's browser client ID, linked by B's orchestrator: only A may end the link.
  ids.linkedClientIdA = a.browserClientId;
  await db().clientIdLink.create({
    data: { id: ulid(), clientId: a.browserClientId, orchestratorAccountId: b.account.id, status: "active" },
  });
  ids.orchestratorKeyA = (await db().orchestratorKey.findFirstOrThrow({ where: { accountId: a.account.id } })).id;
  const endpoint = await db().webhookEndpoint.create({
    data: { id: ulid(), accountId: a.account.id, clientId: a.clientId, url: "https://hooks.example/a", secretEnc: "x" },
  });
  ids.webhookA = endpoint.id;
  const delivery = await db().webhookDelivery.create({
    data: { id: ulid(), endpointId: endpoint.id, eventType: "payment.confirmed", body: "{}", status: "failed", attempts: 3 },
  });
  ids.deliveryA = delivery.id;
  ids.linkA = ulid();
  await db().securePayment.create({
    data: {
      token: ids.linkA,
      accountId: a.account.id,
      direction: "incoming",
      paymentType: "single",
      network: "base",
      identityMode: "manual_dashboard",
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  const paid = await insertPaidRequest(a.account.id, "USDC-base", 1_000_000n, 0);
  ids.scheduleA = await recurringScheduleOf(a.account.id, paid);
  // A paid request of A with a prepared refund: B must neither refund it nor see, send or cancel the refund.
  ids.paidA = await insertPaidRequest(a.account.id, "USDC-base", 5_000_000n, 0, {
    payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    hexId: true,
  });
  const paidA = await db().paymentRequest.findUniqueOrThrow({ where: { id: ids.paidA } });
  ids.refundA = (
    await db().$transaction((tx) =>
      insertRefund(tx, paidA, { to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", amount: 2_000_000n, reason: "excess", sender: "payee" }),
    )
  ).id;
  ids.destinationWalletA = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
  const dest = await db().payeeDestination.create({
    data: {
      id: `dest-a-${ulid()}`,
      accountId: a.account.id,
      walletAddress: ids.destinationWalletA,
      network: "base",
      chainId: 8453,
      tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      tokenSymbol: "USDC",
    },
  });
  ids.destinationA = dest.id;
  await db().feeConfig.create({
    data: { id: prefixedId("fee_"), accountId: a.account.id, flow: "get_paid", percentageBps: 50, evmAddress: ids.destinationWalletA },
  });
});

afterEach(() => {
  jar.clear();
  setClock(null);
});

describe("server actions", () => {
  it("every exported action of every actions file is registered here", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (name === "actions.ts") files.push(p);
      }
    };
    walk(path.join(process.cwd(), "app"));
    expect(files.length).toBe(Object.keys(MODULES).length);
    const exported = Object.entries(MODULES).flatMap(([m, mod]) =>
      Object.entries(mod)
        .filter(([, v]) => typeof v === "function")
        .map(([name]) => `${m}#${name}`),
    );
    expect(exported.sort()).toEqual(Object.keys(CASES).sort());
  });

  it("a user of account B changes nothing of account A and sees none of it", async () => {
    const before = await snapshotA();
    for (const [name, c] of Object.entries(CASES)) {
      if (c.public) continue;
      jar.set(SESSION_COOKIE, tokenB);
      const out = await outcome(c.call);
      for (const secret of [ids.apiKeyA, ids.webhookA, ids.deliveryA, ids.scheduleA, ids.destinationA, ids.refundA, a.account.id]) {
        expect(out.text.includes(secret!), `${name} revealed ${secret}`).toBe(false);
      }
      if (c.admin) expect(out.refused, `${name} ran for a non-admin`).toBe(true);
    }
    // B's own writes (a key, a client ID…) are B's; A's rows are exactly as they were.
    expect(await snapshotA()).toBe(before);
  });

  it("signed out, and with a wallet session idle for 15 minutes, every account action is refused", async () => {
    const before = await snapshotA();
    for (const [name, c] of Object.entries(CASES)) {
      if (c.public) continue;
      jar.clear();
      const signedOut = await outcome(c.call);
      expect(signedOut.refused, `${name} ran signed out`).toBe(true);
      expect(signedOut.text).toMatch(/session has ended|Sign in/i);
    }
    const start = Date.now();
    setClock(() => start + 15 * 60_000 + 1_000);
    for (const [name, c] of Object.entries(CASES)) {
      if (c.public) continue;
      jar.set(SESSION_COOKIE, walletTokenA);
      const idle = await outcome(c.call);
      expect(idle.refused, `${name} ran on an idle wallet session`).toBe(true);
    }
    expect(await snapshotA()).toBe(before);
  });

  it("an operator's action works and is recorded with who, what and when", async () => {
    const operator = await userOf(b.account.id, `op-${ulid()}@dash.test`, true);
    jar.set(SESSION_COOKIE, (await createSession(operator, "email")).token);
    const out = await adminActions.issueOrchestratorKeyAction(none, form({ accountId: a.account.id, name: "by operator" }));
    expect(out.error).toBeNull();
    expect(out.secret).toMatch(/^orc_/);
    await adminActions.setClientIdStatusAction(form({ id: ids.clientIdA!, op: "restrict" }));
    expect((await db().clientId.findUniqueOrThrow({ where: { id: ids.clientIdA! } })).status).toBe("restricted");
    const log = await db().adminAuditEntry.findMany({ where: { accountId: a.account.id }, orderBy: { createdAt: "asc" } });
    expect(log.map((e) => e.action)).toEqual(["orchestrator_key.issue", "client_id.restrict"]);
    expect(log[0]!.actor).toContain(operator.email!);
    // A refused operator action is on the record too.
    await expect(adminActions.revokeOrchestratorKeyAction(form({ id: "okey_missing" }))).rejects.toThrow();
    await adminActions.setClientIdStatusAction(form({ id: ids.clientIdA!, op: "activate" }));
  });

  it("A's own user can act on A's objects (the refusals above are about the person, not the action)", async () => {
    jar.set(SESSION_COOKIE, tokenA);
    await webhookActions.toggleWebhookAction(form({ id: ids.webhookA! }));
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id: ids.webhookA! } })).active).toBe(false);
    await webhookActions.redeliverAction(form({ endpointId: ids.webhookA!, deliveryId: ids.deliveryA! }));
    expect((await db().webhookDelivery.findUniqueOrThrow({ where: { id: ids.deliveryA! } })).status).toBe("pending");
    const paused = await recurringActions.manageRecurringAction(none, form({ id: ids.scheduleA!, action: "pause" }));
    expect(paused.error).toBeNull();
    expect((await db().recurringSchedule.findUniqueOrThrow({ where: { id: ids.scheduleA! } })).status).toBe("paused");
    // The refund actions: A's user gets the offered refund's transactions (for the payee's wallet), and can keep the money.
    const plan = await requestActions.refundPlanAction({ requestId: ids.paidA!, refundId: ids.refundA! });
    expect(plan.error).toBeNull();
    expect(plan.plan?.transactions.at(-1)?.data).toMatch(/^0xc219a14d/);
    expect(await requestActions.cancelRefundAction(none, form({ requestId: ids.paidA!, refundId: ids.refundA! }))).toEqual({
      error: null,
      cancelled: ids.refundA,
    });
    const cancelled = await linkActions.cancelLinkAction(none, form({ token: ids.linkA! }));
    expect(cancelled).toEqual({ error: null, cancelled: ids.linkA });
    expect(await db().securePayment.findUniqueOrThrow({ where: { token: ids.linkA! } })).toMatchObject({
      status: "expired",
      cancelledAt: expect.any(Date),
    });
  });
});
