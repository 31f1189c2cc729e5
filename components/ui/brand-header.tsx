/** A brand as the pay and onboarding pages show it: a name, and an optional logo, colour and support link. */
export interface Brand {
  displayName: string;
  logoUrl: string | null;
  accentColor: string | null;
  supportUrl: string | null;
}

const HEX = /^#[0-9a-fA-F]{6}$/;

/**
 * The orchestrator's brand on a linked platform's payment link: who the payer is dealing with,
 * first. Server-rendered; the logo is the orchestrator's HTTPS URL (CSP img-src allows https).
 */
export function BrandHeader({ brand, subtitle = "Payment link" }: { brand: Brand; subtitle?: string }) {
  const accent = brand.accentColor && HEX.test(brand.accentColor) ? brand.accentColor : "#4f46e5";
  return (
    <section
      aria-label="Merchant"
      className="flex items-center gap-3 rounded-xl border border-slate-200 border-t-4 bg-white px-4 py-3 shadow-sm"
      style={{ borderTopColor: accent }}
    >
      {brand.logoUrl ? (
        // biome-ignore lint/performance/noImgElement: an external logo of unknown size; next/image would need its host configured
        <img src={brand.logoUrl} alt="" width={40} height={40} className="size-10 shrink-0 rounded-lg object-contain" />
      ) : (
        <span
          aria-hidden="true"
          className="flex size-10 shrink-0 items-center justify-center rounded-lg text-lg font-semibold text-white"
          style={{ backgroundColor: accent }}
        >
          {brand.displayName.slice(0, 1).toUpperCase()}
        </span>
      )}
      <div className="min-w-0">
        <p className="truncate text-base font-semibold text-slate-900">{brand.displayName}</p>
        <p className="text-xs text-slate-500">
          {subtitle}
          {brand.supportUrl ? (
            <>
              {" · "}
              <a
                className="underline decoration-slate-300 underline-offset-2 hover:text-slate-700"
                href={brand.supportUrl}
                rel="noopener noreferrer"
                target="_blank"
              >
                Support
              </a>
            </>
          ) : null}
        </p>
      </div>
    </section>
  );
}
