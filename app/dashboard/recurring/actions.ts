"use server";

import { revalidatePath } from "next/cache";
import { toFormState } from "@/lib/errors";
import { userForAction } from "@/lib/http/page-session";
import { SCHEDULE_ACTIONS, setScheduleStopped } from "@/lib/recurring/account-schedules";
import { manageSchedule } from "@/lib/recurring/manage";

export interface RecurringFormState {
  error: string | null;
  field?: string;
  done?: string;
}

const DONE: Record<(typeof SCHEDULE_ACTIONS)[number], string> = {
  pause: "Paused",
  resume: "Resumed",
  unpause: "Resumed after the failure",
  cancel: "Cancelled",
};

/**
 * One form for the schedule's buttons, on the API's own functions: pause/resume is
 * PATCH /v2/request/{id} {isRecurrenceStopped}, cancel and unpause (after a failure) are
 * PATCH /v2/payouts/recurring/{id} {action}. Another account's schedule is "not found".
 */
export async function manageRecurringAction(_prev: RecurringFormState, form: FormData): Promise<RecurringFormState> {
  try {
    const me = await userForAction();
    const id = String(form.get("id") ?? "");
    const action = String(form.get("action") ?? "");
    if (!(SCHEDULE_ACTIONS as readonly string[]).includes(action))
      return { error: `Unknown action: choose ${SCHEDULE_ACTIONS.join(", ")}` };
    if (action === "cancel" || action === "unpause") await manageSchedule(me.session, id, action);
    else await setScheduleStopped(me.session, id, action === "pause");
    revalidatePath("/dashboard/recurring");
    return { error: null, done: DONE[action as (typeof SCHEDULE_ACTIONS)[number]] };
  } catch (err) {
    // The buttons have no input: an error is the API's message alone, never a field path.
    return toFormState(err, {});
  }
}
