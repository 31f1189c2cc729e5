import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dueDates, dueTimes, FREQUENCIES, type Frequency } from "@/lib/recurring/schedule";

const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (s: string) => new Date(`${s}T00:00:00.000Z`);

describe("recurring due dates", () => {
  it("keeps month ends on the calendar: Jan 31 → Feb 29 (leap) → Mar 31 → Apr 30", () => {
    expect(dueDates(utc("2028-01-31"), "MONTHLY", 4).map(iso)).toEqual(["2028-01-31", "2028-02-29", "2028-03-31", "2028-04-30"]);
    expect(dueDates(utc("2027-01-31"), "MONTHLY", 3).map(iso)).toEqual(["2027-01-31", "2027-02-28", "2027-03-31"]);
  });

  it("pays a Feb 29 start on Feb 28 in common years and Feb 29 again in leap years", () => {
    expect(dueDates(utc("2028-02-29"), "YEARLY", 5).map(iso)).toEqual([
      "2028-02-29",
      "2029-02-28",
      "2030-02-28",
      "2031-02-28",
      "2032-02-29",
    ]);
  });

  it("steps DAILY and WEEKLY by fixed seconds, keeping the time of day", () => {
    const start = new Date("2026-03-28T09:30:00.000Z");
    expect(dueTimes(start, "DAILY", 3)).toEqual([0, 1, 2].map((i) => start.getTime() / 1000 + i * 86_400));
    expect(dueTimes(start, "WEEKLY", 2)[1]).toBe(start.getTime() / 1000 + 604_800);
  });

  it("refuses 1 or 257 payments", () => {
    expect(() => dueDates(utc("2027-01-01"), "DAILY", 1)).toThrow(RangeError);
    expect(() => dueDates(utc("2027-01-01"), "DAILY", 257)).toThrow(RangeError);
  });

  it("is strictly increasing, starts at the start, and never drifts off the start's day (1 000 generated schedules)", () => {
    const arb = fc.record({
      start: fc.date({ min: new Date("2026-01-01T00:00:00Z"), max: new Date("2060-12-31T23:59:59Z"), noInvalidDate: true }),
      frequency: fc.constantFrom<Frequency>(...FREQUENCIES),
      total: fc.integer({ min: 2, max: 256 }),
    });
    fc.assert(
      fc.property(arb, ({ start, frequency, total }) => {
        const dates = dueDates(start, frequency, total);
        expect(dates).toHaveLength(total);
        expect(dates[0]!.getTime()).toBe(start.getTime());
        for (let i = 1; i < dates.length; i++) expect(dates[i]!.getTime()).toBeGreaterThan(dates[i - 1]!.getTime());
        if (frequency === "MONTHLY" || frequency === "YEARLY") {
          for (const d of dates) {
            const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
            expect(d.getUTCDate()).toBe(Math.min(start.getUTCDate(), lastDay));
            expect(d.getUTCHours() * 3600 + d.getUTCMinutes() * 60 + d.getUTCSeconds()).toBe(
              start.getUTCHours() * 3600 + start.getUTCMinutes() * 60 + start.getUTCSeconds(),
            );
          }
        }
      }),
      { seed: 20261123, numRuns: 1000 },
    );
  });
});
