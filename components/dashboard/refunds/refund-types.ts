import type { CancelRefundState, RefundFormState, RefundPlanState } from "@/app/dashboard/requests/actions";

/** One refund of the request as the page lists it (GET /v2/request/{id}'s `refunds`, with the explorer link people can open). */
export interface RefundItem {
  id: string;
  status: "prepared" | "sent" | "confirmed" | "cancelled";
  reason: "requested" | "excess" | "underpaid" | "late";
  sender: "payee" | "relayer";
  /** Decimal string in the payment currency. */
  amount: string;
  toAddress: string;
  warning: string | null;
  txHash: string | null;
  /** Null where no explorer knows the chain (the devnet). */
  explorer: string | null;
  createdAt: string;
  sentAt: string | null;
  confirmedAt: string | null;
  cancelledAt: string | null;
}

/** The chain the payee's wallet sends the refund on. */
export interface RefundChain {
  kind: "evm" | "tron";
  chainId: number;
  name: string;
  testnet: boolean;
  /** What the network fee is paid in (ETH, POL, TRX). */
  nativeSymbol: string;
  /** Set for a local devnet only: a public chain's wallet uses its own RPC. */
  rpcUrl: string | null;
  /** The explorer's transaction prefix, or null (the devnet). */
  explorerTxUrl: string | null;
}

/** The request page's refund server actions (app/dashboard/requests/actions.ts). */
export interface RefundActions {
  prepare: (prev: RefundFormState, form: FormData) => Promise<RefundFormState>;
  plan: (input: { requestId: string; refundId: string }) => Promise<RefundPlanState>;
  markSent: (input: { requestId: string; refundId: string; txHash: string }) => Promise<{ error: string | null; status?: string }>;
  cancel: (prev: CancelRefundState, form: FormData) => Promise<CancelRefundState>;
}

/** A refund the page is sending from the payee's wallet. */
export interface RefundJob {
  refundId: string;
  amount: string;
  toAddress: string;
  /** Set by the wallet once the refund transfer's hash is reported (before the page's data says sent). */
  txHash?: string;
}

/** What the wallet part needs to send one refund (loaded only on a click: EVM or TronLink). */
export interface RefundWalletProps {
  requestId: string;
  job: RefundJob;
  /** The request's payee: the only wallet that can send its refund. */
  payee: string;
  symbol: string;
  chain: RefundChain;
  actions: Pick<RefundActions, "plan" | "markSent">;
  /** The refund transfer's hash was reported: the refund is sent. */
  onSent: (txHash: string) => void;
}
