"use server";

import { revalidatePath } from "next/cache";
import { db } from "@/lib/db";
import { AppError, notFound } from "@/lib/errors";
import { userForAction } from "@/lib/http/page-session";
import { manageSchedule, setRecurrenceStopped } from "@/lib/recurring/manage";

export interface RecurringFormState {
  error: string | null;
  done?: string;
}

const ACTIONS = ["pause", "resume", "cancel", "unpause"] as const;

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
    if (!(ACTIONS as readonly string[]).includes(action)) return { error: `action: must be one of ${ACTIONS.join(", ")}` };
    if (action === "cancel" || action === "unpause") {
      await manageSchedule(me.session, id, action);
    } else {
      const request = await db().paymentRequest.findFirst({
        where: { recurringScheduleId: id, accountId: me.account.id },
        select: { id: true },
      });
      if (!request) throw notFound("Recurring payment not found");
      await setRecurrenceStopped(me.session, request.id, action === "pause");
    }
    revalidatePath("/dashboard/recurring");
    return { error: null, done: `${action}d` };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const first = err.errors?.[0];
    return { error: first ? first.message : err.message };
  }
}
