import { describe, expect, it } from "vitest";
import { SCHEDULE_ACTIONS, scheduleActions } from "@/lib/recurring/account-schedules";

describe("scheduleActions: what the payee can do to a schedule in its state", () => {
  it("pauses or cancels an active schedule", () => {
    expect(scheduleActions("active", null)).toEqual(["pause", "cancel"]);
  });

  it("resumes a schedule the payee stopped", () => {
    expect(scheduleActions("paused", "recurrence_stopped")).toEqual(["resume", "cancel"]);
  });

  it("unpauses one paused by a failure the payer can fix (funds, allowance, gas)", () => {
    for (const code of ["insufficient_balance", "insufficient_allowance", "relayer_empty", null])
      expect(scheduleActions("paused", code)).toEqual(["unpause", "cancel"]);
  });

  it("only cancels one whose failure is final, or one still waiting for its permit", () => {
    expect(scheduleActions("paused", "deadline_passed")).toEqual(["cancel"]);
    expect(scheduleActions("paused", "cancelled_on_chain")).toEqual(["cancel"]);
    expect(scheduleActions("pending", null)).toEqual(["cancel"]);
  });

  it("offers nothing on a finished schedule", () => {
    for (const status of ["completed", "cancelled", "failed"]) expect(scheduleActions(status, null)).toEqual([]);
  });

  it("offers only actions the dashboard's form accepts", () => {
    for (const status of ["pending", "active", "paused", "completed", "cancelled"])
      for (const code of [null, "recurrence_stopped", "deadline_passed", "insufficient_balance"])
        for (const a of scheduleActions(status, code)) expect(SCHEDULE_ACTIONS).toContain(a);
  });
});
