/**
 * Admin CLI: `npm run admin -- <command> [options] [--json]`.
 * Creates accounts, API keys, client IDs and orchestrator keys, revokes them and sets tiers.
 */
import { userInfo } from "node:os";
import { parseArgs } from "node:util";
import {
  createAccount,
  createApiKey,
  createClientId,
  createOrchestratorKey,
  listAccountCredentials,
  RATE_TIERS,
  revokeApiKey,
  revokeOrchestratorKey,
  setAccountBrand,
  setClientIdStatus,
  setRateTier,
} from "@/lib/accounts/issue-credentials";
import { recordAdminAction } from "@/lib/admin/audit";
import { db, disconnectDb } from "@/lib/db";
import { bindClientIdDestination } from "@/lib/destinations/destinations";
import { AppError } from "@/lib/errors";
import { setFeeConfig } from "@/lib/fees/fee-config";
import type { RateTier } from "@/lib/generated/prisma/enums";
import { adoptRunningApp } from "../runtime/runtime-file";

const USAGE = `Usage: npm run admin -- <command> [options] [--json]

Commands:
  account:create --name <name>
  account:list
  account:brand <acc_id> [--name <name>] [--logo <https url>|none]      (what payers see on hosted pages)
  credentials:list --account <acc_id>
  api-key:create --account <acc_id> [--name <name>] [--tier <tier>]
  api-key:revoke <key_id>
  client-id:create --account <acc_id> --name <name> [--domain <origin> ...] [--tier <tier>]
  client-id:revoke <cli_id>        client-id:restrict <cli_id>        client-id:activate <cli_id>
  orchestrator-key:create --account <acc_id> [--name <name>] [--tier <tier>]
  orchestrator-key:revoke <okey_id>
  tier:set <key_|cli_|okey_ id> <tier>
  client-id:bind <cli_id> <destinationId|none>        (payment links of the client ID pay there)
  fee:set --account <acc_id> --flow get_paid|pay --bps <n> [--cap <usd>] [--bearer payer|payee] [--evm 0x..] [--tron T..] [--label <text>]
  fee:clear --account <acc_id> --flow get_paid|pay
  user:grant-admin <email|wallet>    user:revoke-admin <email|wallet>    (operators may open /admin)

Tiers: ${RATE_TIERS.join(", ")}. Secrets are printed once and stored hashed.
Every command that changes something is recorded in the audit log shown at /admin/audit.`;

function tierOf(value: string | undefined): RateTier | undefined {
  if (value === undefined) return undefined;
  if (!(RATE_TIERS as readonly string[]).includes(value))
    throw new AppError("validation_failed", `Unknown tier "${value}"; expected one of ${RATE_TIERS.join(", ")}`);
  return value as RateTier;
}

function flowOf(value: string | undefined): "get_paid" | "pay" {
  if (value !== "get_paid" && value !== "pay") throw new AppError("validation_failed", "--flow must be get_paid or pay");
  return value;
}

function need(value: string | undefined, flag: string): string {
  if (!value) throw new AppError("validation_failed", `Missing ${flag}`);
  return value;
}

async function run(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      account: { type: "string" },
      tier: { type: "string" },
      domain: { type: "string", multiple: true },
      flow: { type: "string" },
      bps: { type: "string" },
      cap: { type: "string" },
      bearer: { type: "string" },
      evm: { type: "string" },
      tron: { type: "string" },
      label: { type: "string" },
      logo: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [command, ...args] = positionals;
  if (values.help || !command) return USAGE;
  switch (command) {
    case "account:create":
      return createAccount(need(values.name, "--name"));
    case "account:brand":
      return setAccountBrand(need(args[0], "<acc_id>"), {
        name: values.name,
        logoUrl: values.logo === "none" ? null : values.logo,
      });
    case "account:list":
      return db().account.findMany({ select: { id: true, name: true, createdAt: true }, orderBy: { createdAt: "asc" } });
    case "credentials:list":
      return listAccountCredentials(need(values.account, "--account"));
    case "api-key:create":
      return createApiKey(need(values.account, "--account"), values.name, tierOf(values.tier));
    case "api-key:revoke":
      await revokeApiKey(need(args[0], "<key_id>"));
      return { revoked: args[0] };
    case "client-id:create":
      return createClientId(need(values.account, "--account"), {
        name: need(values.name, "--name"),
        allowedDomains: values.domain ?? [],
        rateTier: tierOf(values.tier),
      });
    case "client-id:revoke":
      return setClientIdStatus(need(args[0], "<cli_id>"), "revoked");
    case "client-id:restrict":
      return setClientIdStatus(need(args[0], "<cli_id>"), "restricted");
    case "client-id:activate":
      return setClientIdStatus(need(args[0], "<cli_id>"), "active");
    case "orchestrator-key:create":
      return createOrchestratorKey(need(values.account, "--account"), values.name, tierOf(values.tier));
    case "orchestrator-key:revoke":
      await revokeOrchestratorKey(need(args[0], "<okey_id>"));
      return { revoked: args[0] };
    case "tier:set":
      await setRateTier(need(args[0], "<id>"), tierOf(need(args[1], "<tier>")) ?? "default");
      return { id: args[0], rateTier: args[1] };
    case "client-id:bind": {
      const cli = need(args[0], "<cli_id>");
      const row = await db().clientId.findUnique({ where: { id: cli }, select: { accountId: true } });
      if (!row) throw new AppError("not_found", `Client ID ${cli} not found`);
      const dest = need(args[1], "<destinationId|none>");
      return bindClientIdDestination(row.accountId, cli, dest === "none" ? null : dest);
    }
    case "fee:set":
      return setFeeConfig({
        accountId: need(values.account, "--account"),
        flow: flowOf(values.flow),
        percentageBps: Number(need(values.bps, "--bps")),
        capUsd: values.cap,
        feeBearer: values.bearer === "payee" ? "payee" : "payer",
        evmAddress: values.evm,
        tronAddress: values.tron,
        label: values.label,
      });
    case "user:grant-admin":
    case "user:revoke-admin": {
      const who = need(args[0], "<email|wallet>");
      const isAdmin = command === "user:grant-admin";
      const user = await db().user.findFirst({
        where: { OR: [{ email: who.toLowerCase() }, { walletAddress: who.toLowerCase() }, { walletAddress: who }] },
        select: { id: true },
      });
      if (!user) throw new AppError("not_found", `No user signs in as ${who}`);
      await db().user.update({ where: { id: user.id }, data: { isAdmin } });
      return { userId: user.id, isAdmin };
    }
    case "fee:clear":
      return db().feeConfig.updateMany({
        where: { accountId: need(values.account, "--account"), flow: flowOf(values.flow) },
        data: { active: false },
      });
    default:
      throw new AppError("validation_failed", `Unknown command "${command}"\n\n${USAGE}`);
  }
}

const argv = process.argv.slice(2);
const asJson = argv.includes("--json");
const taken = adoptRunningApp();
if (taken.length > 0 && !asJson) console.error(`[admin] using the running app's ${taken.join(" and ")}`);
/** Commands that change nothing are not audited. */
const READ_ONLY = new Set(["account:list", "credentials:list"]);

async function runAudited(argv: string[]): Promise<unknown> {
  const result = await run(argv);
  const positionals = argv.filter((a) => !a.startsWith("-"));
  const command = positionals[0];
  if (command && !READ_ONLY.has(command) && typeof result !== "string") {
    const accountIdx = argv.indexOf("--account");
    await recordAdminAction({
      actor: `cli ${userInfo().username}`,
      action: command,
      target: positionals[1] ?? (accountIdx >= 0 ? (argv[accountIdx + 1] ?? "") : ""),
      accountId: accountIdx >= 0 ? argv[accountIdx + 1] : null,
      details: { argv: argv.filter((a) => a !== "--json") },
    });
  }
  return result;
}

runAudited(argv)
  .then((result) => {
    if (typeof result === "string") console.log(result);
    else console.log(asJson ? JSON.stringify(result) : JSON.stringify(result, null, 2));
  })
  .catch((err: unknown) => {
    const message =
      err instanceof AppError ? [err.message, ...(err.errors ?? []).map((e) => `${e.field}: ${e.message}`)].join("\n") : String(err);
    if (asJson) console.log(JSON.stringify({ error: message }));
    else console.error(message);
    process.exitCode = 1;
  })
  .finally(() => disconnectDb());
