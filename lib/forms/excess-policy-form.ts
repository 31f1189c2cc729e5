import { z } from "zod";
import type { FormFields } from "@/lib/errors";

/**
 * The account's wrong-amount policy (Settings): what happens to an overpayment's excess and to an
 * underpaid or late payment of its links (lib/refunds/policy.ts). A link may choose its own
 * (POST /v2/secure-payments `excessPolicy`).
 */
export const EXCESS_POLICY_FORM_FIELDS = { policy: { label: "Money a payment did not ask for" } } as const satisfies FormFields;

export const excessPolicyFormSchema = z.object({ policy: z.enum(["return", "offer", "keep"], "must be return, offer or keep") });

export const excessPolicyFormBody = (v: Record<string, string | undefined>) => ({ policy: v.policy ?? "" });
