"use server";

import { revalidatePath } from "next/cache";
import { toFormState } from "@/lib/errors";
import { userForAction } from "@/lib/http/page-session";
import { parseWith } from "@/lib/http/parse";
import { createSecurePaymentBodySchema } from "@/lib/operations/secure-payments-schemas";
import { createSecurePayment } from "@/lib/secure-payments/create-secure-payment";

export interface LinkFormState {
  error: string | null;
  field?: string;
  created?: { url: string; token: string };
}

/**
 * Creates a link from the dashboard: the same zod schema and domain function as
 * POST /v2/secure-payments, as the signed-in account (identity mode manual_dashboard).
 */
export async function createLinkAction(_prev: LinkFormState, form: FormData): Promise<LinkFormState> {
  try {
    const me = await userForAction();
    const text = (k: string) => {
      const v = String(form.get(k) ?? "").trim();
      return v === "" ? undefined : v;
    };
    const body = parseWith(createSecurePaymentBodySchema, {
      requests: [{ amount: text("amount") ?? "" }],
      reference: text("reference"),
      description: text("description"),
      redirectUrl: text("redirectUrl"),
    });
    const link = await createSecurePayment(me.session, body);
    revalidatePath("/dashboard/links");
    return { error: null, created: { url: link.securePaymentUrl, token: link.token } };
  } catch (err) {
    return toFormState(err);
  }
}
