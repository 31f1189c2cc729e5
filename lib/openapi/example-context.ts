import { allNetworkRuntimes } from "@/lib/chain/config";
import { EVM_ADDRESS, EVM_ADDRESS_2 } from "@/lib/openapi/example-values";

/**
 * What the /docs examples (lib/openapi/operation-examples.ts) are built from, and the shape of one.
 * The example request of each operation on /docs, where the one generated from its schema
 * (lib/openapi/examples.ts) would not run: fields that exclude each other, objects that must
 * exist first, proofs a wallet signs, dates that must lie ahead. Each example names its
 * placeholders (`<requestId>`, `<signature>`…) and where their values come from; everything else
 * runs as pasted. tests/operations/docs-examples.test.ts runs every example against the route
 * handlers and expects the status /docs documents.
 */

/** What an example is built from: this deployment's example network and the render time. */
export interface ExampleContext {
  network: string;
  chainId: number;
  /** The network's USDC currency ID, e.g. USDC-base. */
  currency: string;
  tokenAddress: string;
  /** A start date a week ahead (midnight UTC), so a dated example does not go stale. */
  startDate: string;
  /** The receiving wallet of the examples (Anvil's third development account). */
  payee: string;
  /** The paying wallet of the examples (Anvil's second development account). */
  payer: string;
}

export interface OperationExample {
  /** Credential the example uses, when not the operation's first. */
  auth?: "apiKey" | "clientId" | "orchestratorKey" | "session";
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Each placeholder of the example (`<name>`) and where its value comes from (Markdown). */
  placeholders?: Record<string, string>;
  /** The success status the example shows, when the operation has several (else the first). */
  status?: number;
  /** Examples to run first: the state this one needs (a branding to read), by operationId. */
  requires?: string[];
}

const DAY = 86_400_000;

/**
 * The network the examples use: of the EVM networks this deployment has an RPC for, the one that
 * runs the most (recurring payouts, deposit addresses): the devnet's under `npm run dev`, not the
 * bridge's source chain beside it. Without any RPC, Base. Its USDC (or first token) is the example currency.
 */
export function exampleContext(now: number = Date.now()): ExampleContext {
  const all = allNetworkRuntimes();
  const capabilities = (r: (typeof all)[number]) =>
    Number(Boolean(r.contracts.recurringPayments)) + Number(Boolean(r.contracts.singleRequestProxyFactory));
  const configured = all.filter((r) => r.rpcUrl !== null && r.network.id !== "tron");
  const runtime = configured.sort((a, b) => capabilities(b) - capabilities(a))[0] ?? all.find((r) => r.network.id === "base")!;
  const token = runtime.tokens.find((t) => t.symbol === "USDC") ?? runtime.tokens[0]!;
  const startDate = new Date(Math.floor(now / DAY) * DAY + 7 * DAY).toISOString();
  return {
    network: runtime.network.id,
    chainId: runtime.network.chainId,
    currency: `${token.symbol}-${runtime.network.id}`,
    tokenAddress: token.address,
    startDate,
    payee: EVM_ADDRESS,
    payer: EVM_ADDRESS_2,
  };
}

/** The `recurrence` of a recurring payout: monthly from a week ahead, paid by the example payer. */
export function recurrenceOf(ctx: ExampleContext) {
  return { startDate: ctx.startDate, frequency: "MONTHLY", totalPayments: 12, payer: ctx.payer };
}

/** The `recurrence` of a recurring request (POST /v2/request): monthly from a week ahead. */
export function requestRecurrenceOf(ctx: ExampleContext) {
  return { startDate: ctx.startDate, frequency: "MONTHLY" };
}
