/**
 * Refunds (issue 28): a payee's wallet sends money back through the network's ERC20FeeProxy under
 * the request's refund reference; detection records it like a payment. The API (lib/operations/refunds.ts)
 * and the dashboard call these.
 */
export { HOLDING_STATUSES, ledgerOf, type RefundLedger, readLedger, refundStatusOf } from "@/lib/refunds/ledger";
export { cancelRefund, getRefund, listRefunds, markRefundSent, parseRefundTxHash } from "@/lib/refunds/manage";
export {
  CONTRACT_WARNING,
  EXCHANGE_WARNING,
  type PreparedRefund,
  type PrepareRefundInput,
  prepareRefund,
  type RefundMetadata,
  refundableRequestOrThrow,
  refundPlan,
} from "@/lib/refunds/prepare";
export { type RefundRecordResult, type RefundTransfer, recordRefundTransfer, refundRequestsByHash } from "@/lib/refunds/record";
export { insertRefund, type NewRefund, refundReferenceOf } from "@/lib/refunds/store";
export { type RefundView, refundFieldsOf, toRefundView } from "@/lib/refunds/view";
