import { sameAddress } from "@/lib/chain/address";
import { effectiveRate, FIAT_PATH_DECIMALS, fiatHash } from "@/lib/chain/conversion";
import { tokenOf } from "@/lib/chain/stored";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import type { TransferEvent } from "@/lib/detection/types";
import { type CrossChainRef, paymentConfirmedPayload, paymentPartialPayload } from "@/lib/events/catalog";
import { writeOutboxEvent } from "@/lib/events/outbox";
import type { Payment, PaymentRequest, Prisma } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";
import { formatAmount } from "@/lib/money";
import { FEE_SHORT, type FeeLeg, feeLegsOf, feeProgressOf, missingFeesOf } from "@/lib/payments/fee-legs";
import { bindQuote, claimQuotedCredit, isQuotedConversion } from "@/lib/payments/quoted-conversion";
import { issueNewPaymentReceipt, receiptUrlOrNull } from "@/lib/receipts/issue";
import { labelFactsOf, wrongAmountFields, wrongAmountOf } from "@/lib/refunds/labels";
import { offerWrongAmounts } from "@/lib/refunds/offer";
import { safePayerOf } from "@/lib/secure-payments/safe";

export type RecordResult = "recorded" | "duplicate" | "ignored";

/** A payment row without what comes from its request (account, network); amounts are integer base-unit strings. */
export type PaymentRow = Omit<
  Prisma.PaymentCreateManyInput,
  "requestId" | "accountId" | "network" | "createdAt" | "amount" | "feeAmount" | "blockTime"
> & {
  amount: string;
  feeAmount: string;
  blockTime: Date;
};

/**
 * The one way a Payment row is written: with its request's account (the column the dashboard and
 * GET /v2/payments read by) and, when the row is new, counted in PaymentDaily (per request kind: money in or out) — in the caller's
 * transaction, so the rollup never disagrees with the payments. The (network, txHash, logIndex)
 * key makes a re-scan a no-op: false, nothing counted. Concurrent recordings for one account,
 * UTC day, network and currency wait for each other on the rollup row until the first commits.
 */
export async function insertPayment(
  tx: Prisma.TransactionClient,
  request: Pick<PaymentRequest, "id" | "accountId" | "network" | "paymentCurrency" | "kind">,
  row: PaymentRow,
): Promise<boolean> {
  return (await insertPaymentRow(tx, request, row)) !== null;
}

/** insertPayment, returning the inserted row (null: already recorded). */
async function insertPaymentRow(
  tx: Prisma.TransactionClient,
  request: Pick<PaymentRequest, "id" | "accountId" | "network" | "paymentCurrency" | "kind">,
  row: PaymentRow,
): Promise<Payment | null> {
  const [inserted] = await tx.payment.createManyAndReturn({
    data: [{ ...row, requestId: request.id, accountId: request.accountId, network: request.network }],
    skipDuplicates: true,
  });
  if (!inserted) return null;
  const day = row.blockTime.toISOString().slice(0, 10);
  await tx.$executeRaw`
    INSERT INTO "PaymentDaily" ("accountId", "day", "network", "currency", "kind", "count", "amount")
    VALUES (${request.accountId}, ${day}::date, ${request.network}, ${request.paymentCurrency}, ${request.kind}::"RequestKind", 1, ${row.amount}::numeric)
    ON CONFLICT ("accountId", "day", "network", "currency", "kind")
    DO UPDATE SET "count" = "PaymentDaily"."count" + 1, "amount" = "PaymentDaily"."amount" + EXCLUDED."amount"`;
  return inserted;
}

/**
 * Records one transfer against its request, exactly once. In one transaction: insert the
 * payment (the unique (network, txHash, logIndex) key turns a re-scan into a no-op), add
 * its amount, move the status, and — when the request becomes paid — write the
 * payment.confirmed outbox event. A transfer of another token or to another address than
 * the request names does not count. A conversion request (a fiat invoice) counts only payments through
 * the conversion proxy in its invoice currency, by the invoice amount the proxy credited (not the token
 * amount): EUR 100 paid at any rate pays a EUR 100 request; a plain token transfer is ignored.
 * A request with a fee is paid only when each of its fee legs has its amount too (lib/payments/fee-legs.ts):
 * a short fee leaves it partially_paid with subStatus fee_short and a payment.partial event naming what is missing.
 */
export async function recordTransfer(request: PaymentRequest, ev: TransferEvent, crossChain?: CrossChainRef): Promise<RecordResult> {
  if (!sameAddress(ev.tokenAddress, request.tokenAddress) || !sameAddress(ev.to, request.payee)) return "ignored";
  const conversion = ev.conversion;
  // Tron has no conversion proxy: there a transfer counts through the live quote it pays (lib/payments/quoted-conversion.ts).
  const quoted = isQuotedConversion(request);
  if (request.isConversion && !quoted && conversion?.currency.toLowerCase() !== fiatHash(request.invoiceCurrency).toLowerCase())
    return "ignored";
  const credited = request.isConversion && conversion ? conversion.requestAmount : ev.amount;
  const conversionColumns =
    request.isConversion && conversion
      ? {
          invoiceAmount: conversion.requestAmount.toString(),
          invoiceFeeAmount: conversion.feeAmount.toString(),
          conversionRate: effectiveRate(ev.amount, conversion.requestAmount, FIAT_PATH_DECIMALS, tokenOf(request).decimals, 18),
          amountInUsd: conversion.amountInUsd === null ? null : formatAmount(conversion.amountInUsd, FIAT_PATH_DECIMALS),
        }
      : {};
  return db().$transaction(async (tx) => {
    const quote = quoted ? await claimQuotedCredit(tx, request, ev) : null;
    if (quoted && !quote) return "ignored";
    // A forward from the request's deposit address was sent by whoever triggered it (the deposit
    // relayer): the payer is who transferred the tokens into the address (lib/deposits/sweep.ts).
    // A cross-chain payment is sent by the bridge: the payer is who paid on the source chain.
    // A smart account paid (lib/detection/payer-account.ts): the payer is the account, its EOA the transaction's sender.
    let payer = crossChain?.payer ?? ev.payerAccount?.address ?? ev.from;
    let payerEoa = crossChain?.payer ?? (ev.payerAccount ? ev.payerAccount.eoa : ev.from);
    let depositAddress: string | null = null;
    // (A transaction sent to the proxy itself came from no deposit address: nothing to read.)
    if (ev.txTo && !sameAddress(ev.txTo, ev.proxyAddress)) {
      const deposit = await tx.depositAddress.findUnique({ where: { requestId: request.id }, select: { address: true, depositors: true } });
      if (deposit?.address && sameAddress(deposit.address, ev.txTo)) {
        payer = payerEoa = deposit.depositors[0] ?? ev.from;
        depositAddress = deposit.address;
      }
    }
    // A recurring payment is sent by the relayer through the recurring contract: the payer is the
    // schedule's subscriber (the permit's owner, whose tokens the contract pulled).
    if (request.recurringScheduleId && ev.txTo) {
      const s = await tx.recurringSchedule.findUnique({
        where: { id: request.recurringScheduleId },
        select: { contract: true, payer: true },
      });
      if (s && sameAddress(s.contract, ev.txTo)) payer = payerEoa = s.payer;
    }
    // A Safe pays in a transaction sent to it (an owner or relayer runs execTransaction): the payer is the Safe.
    payer = (await safePayerOf(tx, request.id, ev)) ?? payer;
    const paymentId = ulid();
    const payment = await insertPaymentRow(tx, request, {
      id: paymentId,
      txHash: ev.txHash,
      logIndex: ev.logIndex,
      blockNumber: ev.blockNumber,
      blockHash: ev.blockHash,
      payer,
      payerEoa,
      payee: ev.to,
      tokenAddress: ev.tokenAddress,
      amount: ev.amount.toString(),
      feeAmount: ev.feeAmount.toString(),
      feeAddress: ev.feeAddress,
      proxyAddress: ev.proxyAddress,
      depositAddress,
      blockTime: ev.blockTime,
      ...(quote?.columns ?? conversionColumns),
    });
    if (!payment) return "duplicate";
    if (quote) await bindQuote(tx, quote.quoteId, paymentId);
    // The increment happens in SQL under the row lock, so concurrent sweeps add correctly.
    const bumped = await tx.paymentRequest.update({
      where: { id: request.id },
      data: { amountPaid: { increment: (quote?.credited ?? credited).toString() } },
    });
    // Its signed receipt (lib/receipts), in this transaction: payment.confirmed links to it. `bumped` is the
    // request as this transaction sees it (the receipt reads none of amountPaid, status or paidAt).
    const receipt = await issueNewPaymentReceipt(tx, payment, bumped);
    const expected = BigInt(bumped.expectedAmount.toFixed());
    const paidAmount = BigInt(bumped.amountPaid.toFixed());
    // A request with a fee is paid only when each fee leg got its amount too (lib/payments/fee-legs.ts).
    // Its payments are read after the row lock above, so the last of concurrent recordings sees them all.
    const legs = feeLegsOf(bumped);
    const fees = legs.length > 0 ? (await feeProgressOf([bumped], tx)).get(request.id)! : null;
    const paidNow = fees ? fees.paid : paidAmount >= expected;
    const status = paidNow ? "paid" : "partially_paid";
    const subStatus = paidNow ? null : (fees?.subStatus ?? null);
    const updated = await tx.paymentRequest.update({
      where: { id: request.id },
      data: { status, subStatus, paidAt: paidNow && !bumped.paidAt ? ev.blockTime : bumped.paidAt, payer: bumped.payer ?? payer },
    });
    // Over, late or (on an expired link) under: offered to the payee under the link's policy (lib/refunds/offer.ts); labelled in the events.
    const facts = (await labelFactsOf([updated], tx)).get(request.id)!;
    // Payouts and conversion requests are labelled, never offered (offerWrongAmounts would read to say so).
    if (updated.kind === "request" && !updated.isConversion) await offerWrongAmounts(tx, request.id, now(), facts);
    const label = wrongAmountFields(wrongAmountOf(facts), amountDecimalsOf(updated));
    if (paidNow && bumped.status !== "paid") {
      await writeOutboxEvent(tx, {
        accountId: request.accountId,
        clientId: request.clientId,
        type: "payment.confirmed",
        dedupeKey: `payment.confirmed:${request.id}`,
        payload: paymentConfirmedPayload(updated, payment, {
          crossChain,
          feesPaid: fees ? await feesPaidOf(tx, request.id, legs) : undefined,
          label,
          receiptUrl: receiptUrlOrNull(receipt),
        }),
        requestId: request.id,
      });
    } else if (fees && subStatus === FEE_SHORT && bumped.status !== "paid") {
      // The fee is short of its share: the integrator hears why the request is not paid (payment.partial, subStatus fee_short).
      await writeOutboxEvent(tx, {
        accountId: request.accountId,
        clientId: request.clientId,
        type: "payment.partial",
        dedupeKey: `payment.partial:${request.id}:${ev.txHash}:${ev.logIndex}`,
        payload: paymentPartialPayload(updated, payment, missingFeesOf(updated, fees), {
          feesPaid: await feesPaidOf(tx, request.id, legs),
          label,
        }),
        requestId: request.id,
      });
    }
    return "recorded";
  });
}

/** Decimals of a request's owed amounts: the token's, or a conversion request's invoice currency at the path's 8. */
const amountDecimalsOf = (r: PaymentRequest) => (r.isConversion ? FIAT_PATH_DECIMALS : tokenOf(r).decimals);

/** The fees a request's payments sent to its fee addresses, in token base units (what payment.confirmed and payment.partial report). */
async function feesPaidOf(tx: Prisma.TransactionClient, requestId: string, legs: readonly FeeLeg[]): Promise<bigint> {
  const all = await tx.payment.findMany({ where: { requestId }, select: { feeAmount: true, feeAddress: true } });
  return all
    .filter((p) => p.feeAddress && legs.some((l) => sameAddress(l.address, p.feeAddress!)))
    .reduce((sum, p) => sum + BigInt(p.feeAmount.toFixed()), 0n);
}
