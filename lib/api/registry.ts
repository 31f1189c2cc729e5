import { challengeOp, currentSessionOp, loginOp, logoutOp, registerOp, verifyOp } from "@/lib/auth/operations";
import { conversionRoutesOp, listCurrenciesOp } from "@/lib/currencies/operations";
import { createBatchPayoutOp, createPayoutOp } from "@/lib/payouts/operations";
import { createRequestOp, getRequestOp, getRequestRoutesOp, payRequestOp } from "@/lib/requests/operations";
import { createWebhookOp, deleteWebhookOp, listDeliveriesOp, listWebhooksOp, redeliverOp, testWebhookOp, updateWebhookOp } from "@/lib/webhooks/operations";
import type { Operation } from "./operation";

/** Every public operation, in documentation order. A new route adds its operation here. */
export const OPERATIONS: readonly Operation[] = [
  listCurrenciesOp,
  conversionRoutesOp,
  createRequestOp,
  getRequestOp,
  getRequestRoutesOp,
  payRequestOp,
  createPayoutOp,
  createBatchPayoutOp,
  challengeOp,
  verifyOp,
  logoutOp,
  registerOp,
  loginOp,
  currentSessionOp,
  createWebhookOp,
  listWebhooksOp,
  updateWebhookOp,
  deleteWebhookOp,
  testWebhookOp,
  listDeliveriesOp,
  redeliverOp,
];
