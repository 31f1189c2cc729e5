import { challengeOp, currentSessionOp, loginOp, logoutOp, registerOp, verifyOp } from "@/lib/auth/operations";
import { conversionRoutesOp, listCurrenciesOp } from "@/lib/currencies/operations";
import { createDestinationOp, deactivateDestinationOp, getActiveDestinationOp, readDestinationOp } from "@/lib/destinations/operations";
import { createBatchPayoutOp, createPayoutOp } from "@/lib/payouts/operations";
import { createRequestOp, getRequestOp, getRequestRoutesOp, payRequestOp } from "@/lib/requests/operations";
import { createPayoutLinkOp, createSecurePaymentOp, getPaymentPageOp, getSecurePaymentOp, payLinkOp } from "@/lib/secure-payments/operations";
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
  createSecurePaymentOp,
  createPayoutLinkOp,
  getSecurePaymentOp,
  getPaymentPageOp,
  payLinkOp,
  createDestinationOp,
  getActiveDestinationOp,
  readDestinationOp,
  deactivateDestinationOp,
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
