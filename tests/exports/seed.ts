import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import { ulid } from "@/lib/ids";

/** Rows written directly (no chain) with every field an export reads under the test's control. */
export const PAYEE = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
export const PAYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
export const FEE_ADDRESS = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const TOKENS: Record<string, { currency: string; token: string }> = {
  base: { currency: "USDC-base", token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" },
  mainnet: { currency: "USDT-mainnet", token: "0xdAC17F958D2ee523a2206206994597C13D831ec7" },
};

export interface SeedRequest {
  network?: "base" | "mainnet";
  kind?: "request" | "payout";
  reference?: string | null;
  status?: "pending" | "partially_paid" | "paid";
  invoiceCurrency?: string;
  units?: bigint;
  createdAt?: Date;
  amountRefunded?: bigint;
}

export async function seedRequest(accountId: string, o: SeedRequest = {}) {
  const network = o.network ?? "base";
  const t = TOKENS[network]!;
  const id = `01${randomBytes(32).toString("hex")}`;
  const units = o.units ?? 12_500_000n;
  return db().paymentRequest.create({
    data: {
      id,
      accountId,
      kind: o.kind ?? "request",
      network,
      invoiceCurrency: o.invoiceCurrency ?? t.currency,
      paymentCurrency: t.currency,
      tokenAddress: t.token,
      amount: "12.5",
      expectedAmount: units.toString(),
      amountPaid: o.status === "pending" ? "0" : units.toString(),
      amountRefunded: (o.amountRefunded ?? 0n).toString(),
      payee: PAYEE,
      payer: PAYER,
      salt: "00",
      paymentReference: `0x${id.slice(2, 18)}`,
      referenceHash: `0x${id.slice(2)}`,
      status: o.status ?? "paid",
      reference: o.reference === undefined ? "order-1" : o.reference,
      ...(o.createdAt ? { createdAt: o.createdAt } : {}),
    },
  });
}

export async function seedPayment(
  request: { id: string; accountId: string; network: string; tokenAddress: string },
  o: { blockTime: Date; units?: bigint; fee?: bigint; id?: string; logIndex?: number },
) {
  const id = o.id ?? ulid();
  return db().payment.create({
    data: {
      id,
      requestId: request.id,
      accountId: request.accountId,
      network: request.network,
      txHash: `0x${randomBytes(32).toString("hex")}`,
      logIndex: o.logIndex ?? 3,
      blockNumber: 12_345_678n,
      blockHash: `0x${"0".repeat(64)}`,
      payer: PAYER,
      payee: PAYEE,
      tokenAddress: request.tokenAddress,
      amount: (o.units ?? 12_500_000n).toString(),
      feeAmount: (o.fee ?? 0n).toString(),
      feeAddress: o.fee ? FEE_ADDRESS : null,
      proxyAddress: "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814",
      blockTime: o.blockTime,
    },
  });
}

export async function seedInvoice(accountId: string, requestId: string, sequence: number) {
  return db().invoice.create({
    data: {
      id: ulid(),
      accountId,
      sequence,
      number: `INV-${String(sequence).padStart(6, "0")}`,
      requestId,
      currency: "USDC-base",
      issueDate: new Date(),
      lines: [],
      subtotal: "12.5",
      taxTotal: "0",
      total: "12.5",
    },
  });
}

export async function seedRefund(
  request: { id: string; accountId: string; network: string; tokenAddress: string },
  o: { createdAt: Date; status: "prepared" | "sent" | "confirmed" | "cancelled"; units: bigint },
) {
  const confirmed = o.status === "confirmed";
  return db().refund.create({
    data: {
      id: `rfd_${ulid()}`,
      requestId: request.id,
      accountId: request.accountId,
      network: request.network,
      tokenAddress: request.tokenAddress,
      toAddress: PAYER,
      amount: o.units.toString(),
      refundReference: `0x${randomBytes(8).toString("hex")}`,
      referenceHash: `0x${randomBytes(32).toString("hex")}`,
      status: o.status,
      createdAt: o.createdAt,
      ...(confirmed
        ? {
            txHash: `0x${randomBytes(32).toString("hex")}`,
            logIndex: 1,
            blockNumber: 99n,
            blockHash: `0x${"1".repeat(64)}`,
            blockTime: o.createdAt,
          }
        : {}),
    },
  });
}
