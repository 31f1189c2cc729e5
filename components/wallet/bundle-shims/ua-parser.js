/**
 * Browser bundle only (next.config.ts `turbopack.resolveAlias`, condition `browser`): stands in
 * for `ua-parser-js` (about 9 KB gzipped). RainbowKit reads one field of it, `UAParser().os.name`,
 * to pick a wallet's desktop download link (Windows, macOS or Linux); this answers that field
 * with the names ua-parser-js 2 gives for those systems (checked against it in
 * tests/components/wallet-bundle-shims.test.ts) and leaves every other field empty.
 */
export function osName(userAgent) {
  if (/windows (nt|phone)|win(32|64|dows)/i.test(userAgent)) return /phone/i.test(userAgent) ? "Windows Phone" : "Windows";
  if (/iphone|ipad|ipod/i.test(userAgent)) return "iOS";
  if (/android/i.test(userAgent)) return "Android";
  if (/cros/i.test(userAgent)) return "Chrome OS";
  if (/mac os x|macintosh/i.test(userAgent)) return "macOS";
  const distro = /(ubuntu|mint|fedora|debian|arch)/i.exec(userAgent)?.[1];
  if (distro) return { ubuntu: "Ubuntu", mint: "Mint", fedora: "Fedora", debian: "Debian", arch: "Arch" }[distro.toLowerCase()];
  if (/linux/i.test(userAgent)) return "Linux";
  return undefined;
}

export function UAParser(userAgent) {
  const ua = userAgent ?? (typeof navigator === "undefined" ? "" : navigator.userAgent);
  return { ua, os: { name: osName(ua), version: undefined }, browser: {}, engine: {}, device: {}, cpu: {} };
}
