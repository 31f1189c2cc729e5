import { now } from "@/lib/clock";
import { invalidField } from "@/lib/errors";
import { MAX_SCHEDULE_PAYMENTS } from "@/lib/recurring/permit";

/**
 * Due times of a recurring schedule (docs/spec/DECISIONS.md "Recurring payouts"), all in UTC unix seconds.
 * DAILY and WEEKLY are fixed 86 400 / 604 800 s steps. MONTHLY and YEARLY are calendar steps
 * that keep the start's day of month, clamped to the last day of a shorter month, and always
 * counted from the start (never from the previous, clamped, date): Jan 31 → Feb 28/29 → Mar 31;
 * Feb 29 → Feb 28 in common years → Feb 29 again in the next leap year.
 * The signed permit carries these times explicitly, so the contract checks exactly them.
 */
export const FREQUENCIES = ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export const MIN_PAYMENTS = 2;
/** The contract's limit (totalPayments is a uint16 there). */
export const MAX_PAYMENTS = MAX_SCHEDULE_PAYMENTS;

const DAY_S = 86_400;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** The n-th (0-based) calendar step of `months` months from `start`, clamped to the month's end. */
function addMonthsClamped(start: Date, months: number): Date {
  const total = start.getUTCMonth() + months;
  const year = start.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const day = Math.min(start.getUTCDate(), daysInMonth(year, month));
  return new Date(
    Date.UTC(year, month, day, start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds(), start.getUTCMilliseconds()),
  );
}

/** The i-th (0-based) due date of a schedule starting at `start`. */
export function dueDateAt(start: Date, frequency: Frequency, i: number): Date {
  switch (frequency) {
    case "DAILY":
      return new Date(start.getTime() + i * DAY_S * 1000);
    case "WEEKLY":
      return new Date(start.getTime() + i * 7 * DAY_S * 1000);
    case "MONTHLY":
      return addMonthsClamped(start, i);
    case "YEARLY":
      return addMonthsClamped(start, 12 * i);
  }
}

/** Every due date, strictly increasing, the first one at `start`. */
export function dueDates(start: Date, frequency: Frequency, totalPayments: number): Date[] {
  if (!Number.isInteger(totalPayments) || totalPayments < MIN_PAYMENTS || totalPayments > MAX_PAYMENTS) {
    throw new RangeError(`totalPayments must be an integer from ${MIN_PAYMENTS} to ${MAX_PAYMENTS}`);
  }
  return Array.from({ length: totalPayments }, (_, i) => dueDateAt(start, frequency, i));
}

/** Due dates as the permit carries them: unix seconds (uint32, so no later than 2106). */
export function dueTimes(start: Date, frequency: Frequency, totalPayments: number): number[] {
  return dueDates(start, frequency, totalPayments).map((d) => Math.floor(d.getTime() / 1000));
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `recurrence.startDate` of a recurring payout or request: a date (YYYY-MM-DD, midnight UTC) from
 * today on, or an ISO date-time not in the past. `at` is "now": the app clock, or the network's
 * clock where the calendar runs on it and it is ahead (a devnet moved forward).
 */
export function parseStartDate(value: string, at: Date = now()): Date {
  const field = "recurrence.startDate";
  const iso = DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value;
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(iso) ? Date.parse(iso) : Number.NaN;
  if (!Number.isFinite(ms)) throw invalidField(field, "must be an ISO 8601 date (2027-01-31) or date-time (2027-01-31T09:00:00Z)");
  const current = at.getTime();
  const earliest = DATE_ONLY.test(value) ? current - (current % 86_400_000) : current - 60_000;
  if (ms < earliest) throw invalidField(field, "must not be in the past");
  return new Date(ms);
}
