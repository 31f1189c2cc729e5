import { z } from "zod";

/**
 * How an account appears to payers on its hosted pages, as setAccountBrand (the admin CLI's
 * `account:brand`) and the operators' branding form take it: the one set of limits, zod only so
 * that the form checks it in the browser too (lib/forms/brand-form.ts).
 */
export const BRAND_NAME_MAX = 200;
export const BRAND_LOGO_URL_MAX = 2048;

const NAME_RULE = `must be 1–${BRAND_NAME_MAX} characters`;

export const brandNameSchema = z.string().trim().min(1, NAME_RULE).max(BRAND_NAME_MAX, NAME_RULE);

/** An https image URL; the form's empty input (no logo) is `undefined` here, `null` to setAccountBrand. */
export const brandLogoUrlSchema = z
  .string()
  .max(BRAND_LOGO_URL_MAX, `must be at most ${BRAND_LOGO_URL_MAX} characters`)
  .refine((v) => /^https:\/\//.test(v) && URL.canParse(v), "must be an https URL");

export const brandSchema = z.object({ name: brandNameSchema, logoUrl: brandLogoUrlSchema.optional() });
