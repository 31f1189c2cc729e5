import type { Principal } from "@/lib/auth/principal";
import { asHex, parseAddressFor } from "@/lib/chain/address";
import type { NetworkRuntime } from "@/lib/chain/config";
import type { NetworkId } from "@/lib/chain/networks";
import { storedTermsOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import { AppError, invalidField } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";
import { applyFeePercentage, parseFeePercentage } from "@/lib/money";
import { planBatchPayment, TRON_BATCH_MESSAGE } from "@/lib/payments/plan";
import { REQUEST_ID_PATTERN } from "@/lib/payments/reference";
import { resolveTerms } from "@/lib/payments/terms";
import { requestData } from "@/lib/requests/create-request";

interface Item {
  data: Prisma.PaymentRequestCreateManyInput | null;
  network: NetworkId;
  /** The item's network runtime, resolved once with its terms; the batch is planned on the first item's. */
  runtime: NetworkRuntime;
  token: string;
  to: string;
  amount: bigint;
  paymentReference: `0x${string}`;
  approveResetRequired: boolean;
}

/** POST /v2/payouts/batch: one batchPayments transaction for several payees on one EVM network. */
export interface CreateBatchPayoutInput {
  requests?: { payee: string; amount: string; invoiceCurrency: string; paymentCurrency: string }[];
  requestIds?: string[];
  payer?: string;
  feePercentage?: string;
  feeAddress?: string;
}

export async function createBatchPayout(principal: Principal, body: CreateBatchPayoutInput) {
  if ((body.requests === undefined) === (body.requestIds === undefined))
    throw invalidField("requests", "provide either requests or requestIds, not both");
  const batchId = ulid();
  const items: Item[] = [];
  if (body.requests) {
    // Any Tron payee rejects the whole batch with the interface's exact message.
    if (body.requests.some((r) => r.paymentCurrency.toLowerCase().endsWith("-tron") || r.payee.startsWith("T")))
      throw new AppError("tron_batch_unsupported", TRON_BATCH_MESSAGE);
    body.requests.forEach((r, i) => {
      const terms = resolveTerms(r, `requests.${i}`);
      const data = requestData(principal, "payout", terms, { batchId });
      items.push({
        data,
        network: terms.network,
        runtime: terms.runtime,
        token: terms.token.address,
        to: terms.payee,
        amount: terms.expectedAmount,
        paymentReference: asHex(data.paymentReference),
        approveResetRequired: terms.token.approveResetRequired ?? false,
      });
    });
  } else {
    const ids = body.requestIds ?? [];
    const rows = await db().paymentRequest.findMany({
      where: { id: { in: ids.filter((id) => REQUEST_ID_PATTERN.test(id)) }, accountId: principal.accountId },
    });
    ids.forEach((id, i) => {
      const row = rows.find((r) => r.id === id);
      if (!row) throw new AppError("not_found", `Request ${id} not found`);
      if (row.network === "tron") throw new AppError("tron_batch_unsupported", TRON_BATCH_MESSAGE);
      if (row.status !== "pending") throw invalidField(`requestIds.${i}`, `request ${id} is ${row.status}`);
      if (row.isConversion)
        throw invalidField(
          `requestIds.${i}`,
          `request ${id} is a ${row.invoiceCurrency} invoice: pay it through the conversion proxy on its own`,
        );
      const { network, runtime, token } = storedTermsOf(row);
      items.push({
        data: null,
        network,
        runtime,
        token: row.tokenAddress,
        to: row.payee,
        amount: BigInt(row.expectedAmount.toFixed()),
        paymentReference: asHex(row.paymentReference),
        approveResetRequired: token.approveResetRequired ?? false,
      });
    });
  }
  const { network, runtime } = items[0]!;
  const field = body.requests ? "paymentCurrency" : "";
  items.forEach((item, i) => {
    // The reference's message, with the field at fault named as everywhere else.
    if (item.network !== network)
      throw new AppError("validation_failed", "All requests must be on the same network", {
        errors: [
          {
            field: body.requests ? `requests.${i}.${field}` : `requestIds.${i}`,
            message: `every item must be on one network (item 0 is on ${network}, this one on ${item.network})`,
          },
        ],
      });
  });

  const pct = body.feePercentage === undefined ? null : parseFeePercentage(body.feePercentage, "feePercentage");
  const feeAddress = body.feeAddress === undefined ? null : parseAddressFor(network, body.feeAddress, "feeAddress");
  const withFees = items.map((i) => ({ ...i, feeAmount: pct ? applyFeePercentage(i.amount, pct.basisPointsE2) : 0n }));
  if (withFees.some((i) => i.feeAmount > 0n) && !feeAddress) throw invalidField("feeAddress", "is required with a non-zero feePercentage");
  const payer = body.payer === undefined ? undefined : parseAddressFor(network, body.payer, "payer");

  const plan = await planBatchPayment(runtime, withFees, feeAddress, payer);
  const toCreate = withFees.flatMap((i) =>
    i.data ? [{ ...i.data, payer: payer ?? null, feePercentage: pct?.text ?? null, feeAddress, feeAmount: i.feeAmount.toString() }] : [],
  );
  if (toCreate.length > 0) await db().paymentRequest.createMany({ data: toCreate });
  return {
    requestIds: withFees
      .map((i) => (i.data ? i.data.id : ""))
      .filter(Boolean)
      .concat(body.requestIds ?? []),
    // The reference's approvals carry `value` as the number 0 (its clients validate it so), unlike the batch call.
    ERC20ApprovalTransactions: plan.approvals.map((tx) => ({ data: tx.data, to: tx.to, value: 0 as const })),
    ERC20BatchPaymentTransaction: plan.batch,
    batchPaymentTransaction: plan.batch,
    metadata: plan.metadata,
  };
}
