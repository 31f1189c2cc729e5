import { BRAND_LOGO_URL_MAX, BRAND_NAME_MAX, brandSchema } from "@/lib/accounts/brand-schema";
import type { FormFields } from "@/lib/errors";
import { optionalText } from "@/lib/forms/form-state";

/** The operators' branding form (/admin/accounts/[id]): setAccountBrand's schema, checked in the browser first. */
export const BRAND_FORM_FIELDS = {
  name: { label: "Display name" },
  logoUrl: { label: "Logo URL" },
} as const satisfies FormFields;

export const brandFormSchema = brandSchema;

/** The typed values as the schema takes them: an empty logo is none (it removes the logo). */
export function brandFormBody(v: Record<string, string | undefined>) {
  return { name: v.name ?? "", logoUrl: optionalText(v.logoUrl) };
}

export const BRAND_MAX_LENGTHS = { name: BRAND_NAME_MAX, logoUrl: BRAND_LOGO_URL_MAX } as const;
