import type { Principal } from "@/lib/auth/principal";
import { now } from "@/lib/clock";
import { db } from "@/lib/db";
import { AppError, invalidField } from "@/lib/errors";
import type { RequestRecurrence } from "@/lib/generated/prisma/client";
import { ulid } from "@/lib/ids";
import { toInvoiceView } from "@/lib/invoices/view";
import { log } from "@/lib/log";
import { createPeriodLink, periodLinkUrl } from "@/lib/recurring/period-link";
import { networkClock } from "@/lib/recurring/request-periods";
import { dueDateAt, FREQUENCIES, type Frequency, parseStartDate } from "@/lib/recurring/schedule";
import { type CreateRequestInput, prepareRequest, type RequestRow } from "@/lib/requests/create-request";
import { requestStatusOf } from "@/lib/requests/get-request";
import { type RequestBundle, readRequestBundle } from "@/lib/requests/read-request";

/**
 * Recurring requests' series (docs/guides/recurring.md "Recurring requests"): created with the
 * original request, stopped and resumed with isRecurrenceStopped (PATCH /v2/request/{id}) or the
 * v1 stop-recurrence, shown on GET /v2/request/{id}. Periods are created by request-periods.ts.
 */

export interface RecurrenceInput {
  startDate: string;
  frequency: string;
}

/**
 * The network's clock when it is ahead of the app clock (a devnet moved forward), so "not in the
 * past" means what the calendar will mean; the app clock when the network cannot be read.
 */
async function calendarNow(network: string): Promise<Date> {
  const app = now();
  const chain = await networkClock(network).catch((err: unknown) => {
    log.warn("recurring request: the network's clock could not be read; the app clock decides", { network, err });
    return app;
  });
  return chain > app ? chain : app;
}

/** Validates `recurrence` before anything is written (400 naming recurrence.frequency or recurrence.startDate). */
export async function parseRecurrence(network: string, r: RecurrenceInput): Promise<{ startDate: Date; frequency: Frequency }> {
  if (!(FREQUENCIES as readonly string[]).includes(r.frequency))
    throw invalidField("recurrence.frequency", `must be one of ${FREQUENCIES.join(", ")}`);
  const startDate = parseStartDate(r.startDate, await calendarNow(network));
  return { startDate, frequency: r.frequency as Frequency };
}

/** POST /v2/request with `recurrence`: the request, validated as any (period 1), and its series. */
export async function createRecurringRequest(
  principal: Principal,
  body: CreateRequestInput & { recurrence: RecurrenceInput },
): Promise<{ requestId: string; paymentReference: string }> {
  // Each period is a request of its own: an invoice belongs to one-off requests (docs/guides/invoices.md "Recurring requests").
  if (body.invoice)
    throw invalidField("invoice", "cannot be combined with recurrence: create each period's invoice as a one-off request with invoice");
  const data = await prepareRequest(principal, body);
  await createRecurringOriginal(data, await parseRecurrence(data.network, body.recurrence));
  return { requestId: data.id, paymentReference: data.paymentReference };
}

/**
 * The original request (period 1) and its series, in one transaction: the request first (the series
 * points at it), then the series, then the request joins it as period 1, with its hosted link.
 */
async function createRecurringOriginal(data: RequestRow, r: { startDate: Date; frequency: Frequency }): Promise<void> {
  const id = ulid();
  await db().$transaction(async (tx) => {
    await tx.paymentRequest.create({ data });
    await tx.requestRecurrence.create({
      data: {
        id,
        accountId: data.accountId,
        clientId: data.clientId ?? null,
        originalRequestId: data.id,
        frequency: r.frequency,
        startDate: r.startDate,
        nextIndex: 2,
        nextDueAt: dueDateAt(r.startDate, r.frequency, 1),
      },
    });
    await tx.paymentRequest.update({ where: { id: data.id }, data: { recurrenceId: id, recurrenceIndex: 1 } });
    await createPeriodLink(tx, data);
  });
}

/**
 * isRecurrenceStopped on any request of a series. Stop: no period is created after this commits
 * (the sweep creates a period only under the series' row lock, and only while it is not stopped);
 * stopping again changes nothing. Resume: the calendar goes on from the first period due after now
 * (by the network's clock); periods that fell due while stopped are skipped, not billed late.
 */
export async function setSeriesStopped(series: RequestRecurrence, network: string, stopped: boolean): Promise<RequestRecurrence> {
  if (stopped) {
    await db().requestRecurrence.updateMany({ where: { id: series.id, stoppedAt: null }, data: { stoppedAt: now(), nextDueAt: null } });
  } else if (series.stoppedAt) {
    const at = await networkClock(network).catch(() => {
      throw new AppError("upstream_unavailable", "Could not read the network's clock to resume the recurrence; retry shortly");
    });
    const frequency = series.frequency as Frequency;
    let index = series.nextIndex;
    while (dueDateAt(series.startDate, frequency, index - 1) <= at) index++;
    await db().requestRecurrence.updateMany({
      where: { id: series.id, stoppedAt: { not: null } },
      data: { stoppedAt: null, nextIndex: index, nextDueAt: dueDateAt(series.startDate, frequency, index - 1) },
    });
  }
  return db().requestRecurrence.findUniqueOrThrow({ where: { id: series.id } });
}

/** isRecurrenceStopped on a request of a series (lib/recurring/manage.ts finds the caller's request). */
export async function setSeriesStoppedOf(request: { id: string; network: string; recurrenceId: string }, stopped: boolean) {
  const series = await db().requestRecurrence.findUniqueOrThrow({ where: { id: request.recurrenceId } });
  const after = await setSeriesStopped(series, request.network, stopped);
  const isStopped = after.stoppedAt !== null;
  return { requestId: request.id, recurringPaymentId: after.id, isRecurrenceStopped: isStopped, status: isStopped ? "stopped" : "active" };
}

/** GET /v2/request/{requestId}: the request's status (404 when not the caller's) and, on a series' request, its recurrence. */
export async function getRequestView(accountId: string, requestId: string) {
  // One statement reads the request (scoped to the caller's account), its rows, series and invoice.
  const b = await readRequestBundle(accountId, requestId);
  return { ...(await requestStatusOf(b)), ...recurrenceView(b), invoice: b.invoice && toInvoiceView(b.invoice) };
}

/**
 * The recurrence fields of GET /v2/request/{id} (the reference's `recurrence`, `isRecurrenceStopped`,
 * `originalRequestId`, `originalRequestPaymentReference`), plus the series' ID and the request's
 * period as in request.recurring, and the period's hosted link (securePaymentUrl). Empty for a request outside a series; the original (period 1)
 * has no originalRequestId.
 */
function recurrenceView({ row, recurrence: series, link }: RequestBundle) {
  if (!series || !row.recurrenceIndex) return {};
  return {
    recurrence: { startDate: series.startDate.toISOString(), frequency: series.frequency },
    isRecurrenceStopped: series.stoppedAt !== null,
    ...(row.recurrenceIndex > 1
      ? { originalRequestId: series.original.id, originalRequestPaymentReference: series.original.paymentReference }
      : {}),
    recurringPaymentId: series.id,
    paymentIndex: row.recurrenceIndex,
    nextPeriodDate: series.nextDueAt?.toISOString() ?? null,
    ...periodLinkUrl(link?.token),
  };
}
