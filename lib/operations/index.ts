import type { Operation } from "@/lib/http/operation";
import * as auth from "./auth";
import * as authAliases from "./auth-aliases";
import * as clientIds from "./client-ids";
import * as currencies from "./currencies";
import * as destinations from "./destinations";
import * as documents from "./documents";
import * as dunning from "./dunning";
import * as escrow from "./escrow";
import * as exportOps from "./exports";
import * as gasless from "./gasless";
import * as orchestratorSetup from "./orchestrator-setup";
import * as orchestrators from "./orchestrators";
import * as payments from "./payments";
import * as payouts from "./payouts";
import * as receipts from "./receipts";
import * as recurring from "./recurring";
import * as refunds from "./refunds";
import * as requests from "./requests";
import * as retired from "./retired";
import * as securePaymentTools from "./secure-payment-tools";
import * as securePayments from "./secure-payments";
import * as subscriptions from "./subscriptions";
import * as webhooks from "./webhooks";
import * as x402 from "./x402";

/**
 * Every public operation, derived from the contract modules: an operation exported from one
 * of them is registered, documented in /v2/openapi.json and checked against its route file
 * (tests/operations/routes.test.ts) without a second list to keep. Order: module, then declaration.
 */
const MODULES = [
  currencies,
  requests,
  refunds,
  escrow,
  documents,
  payments,
  receipts,
  payouts,
  exportOps,
  recurring,
  dunning,
  subscriptions,
  securePayments,
  securePaymentTools,
  gasless,
  destinations,
  orchestrators,
  orchestratorSetup,
  auth,
  clientIds,
  webhooks,
  retired,
  authAliases,
  x402,
] as const;

function isOperation(value: unknown): value is Operation {
  return (
    typeof value === "object" && value !== null && "operationId" in value && "method" in value && "path" in value && "responses" in value
  );
}

export const OPERATIONS: readonly Operation[] = MODULES.flatMap((m) => Object.values(m).filter(isOperation));
