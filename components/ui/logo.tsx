/** Duebill's mark: public/logo.svg (the favicons in public/ are drawn from it). Decorative: the name stands beside it. */
export function Logo({ className = "size-7" }: { className?: string }) {
  // biome-ignore lint/performance/noImgElement: a static SVG from public/; next/image does not optimise SVGs
  return <img src="/logo.svg" alt="" width={28} height={28} className={className} />;
}
