/**
 * The overview's first-run checklist (issue 27 item 1): each step read from the account's own rows;
 * the webhook step knows whether a client ID exists (a webhook is registered for one).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { createApiKey, createClientId } from "@/lib/accounts/issue-credentials";
import { db } from "@/lib/db";
import { firstRunChecklist } from "@/lib/requests/first-run";
import { resetDb } from "@/tests/helpers/db";
import { makeAccount } from "@/tests/helpers/factories";

beforeEach(() => resetDb());

describe("first-run checklist", () => {
  it("a new account has nothing done and no client ID; another account's rows never count", async () => {
    const mine = await makeAccount("New merchant");
    const other = await makeAccount("Someone else");
    await createApiKey(other.id);
    await createClientId(other.id, { name: "theirs" });
    expect(await firstRunChecklist(mine.id)).toEqual({
      destination: false,
      link: false,
      webhook: false,
      apiKey: false,
      clientId: false,
    });
  });

  it("an API key and an active client ID are seen; a revoked client ID no longer opens the webhook step", async () => {
    const mine = await makeAccount();
    await createApiKey(mine.id);
    const client = await createClientId(mine.id, { name: "backend" });
    expect(await firstRunChecklist(mine.id)).toMatchObject({ apiKey: true, clientId: true, webhook: false });
    await db().clientId.update({ where: { id: client.clientId }, data: { status: "revoked" } });
    expect(await firstRunChecklist(mine.id)).toMatchObject({ apiKey: true, clientId: false });
  });
});
