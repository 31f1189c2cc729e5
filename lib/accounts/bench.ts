import { db } from "@/lib/db";
import { ulid } from "@/lib/ids";

/**
 * The bench baseline's one INSERT (`POST /api/bench/insert`, `npm run bench`): the row POST /v2/payouts
 * writes — the same table, every column it sets, with the same kinds of values (a 66-character id,
 * 0x references, a JSON-able null) — and nothing else: no terms resolved, no hashes, no plan.
 */
export async function insertBenchRequest(accountId: string, clientId: string | null): Promise<void> {
  const id = `01${ulid().toLowerCase().padEnd(64, "0")}`;
  await db().paymentRequest.create({
    data: {
      id,
      accountId,
      clientId,
      kind: "payout",
      network: "base",
      invoiceCurrency: "USD",
      paymentCurrency: "USDC-base",
      tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      amount: "25.5",
      expectedAmount: "25500000",
      payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
      payer: null,
      salt: id.slice(2, 18),
      paymentReference: `0x${id.slice(2, 18)}`,
      referenceHash: `0x${id.slice(2)}`,
      feePercentage: null,
      feeAddress: null,
      feeAmount: "0",
      isConversion: false,
      reference: null,
      customerInfo: undefined,
      batchId: null,
      createdAt: new Date(),
    },
    select: { id: true },
  });
}
