import type { NextConfig } from "next";

const production = process.env.NODE_ENV === "production";

/**
 * Content-Security-Policy of the pages. The hosted payment page must still let wallets work:
 * injected wallets talk to the page through window events (no network), the devnet RPC is
 * on localhost, WalletConnect (when configured) uses its relay over wss and its verify iframe.
 * Next's inline bootstrap scripts need 'unsafe-inline' without per-request nonces; framing is
 * refused everywhere (frame-ancestors 'none' and X-Frame-Options DENY).
 */
const CSP = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${production ? "" : " 'unsafe-eval'"}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self' https: wss: http://127.0.0.1:* http://localhost:* ws://127.0.0.1:* ws://localhost:*",
  "frame-src https://verify.walletconnect.com https://verify.walletconnect.org",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

const COMMON = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin-allow-popups" },
  ...(production ? [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" }] : []),
];

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // pg and the Prisma adapter are server-only Node modules: keep them out of the bundler.
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "@electric-sql/pglite", "@electric-sql/pglite-socket"],
  typedRoutes: false,
  async headers() {
    return [
      { source: "/:path*", headers: COMMON },
      // Pages (not the JSON API) get the CSP; API answers are JSON, never rendered.
      { source: "/((?!v1/|v2/|api/).*)", headers: [{ key: "Content-Security-Policy", value: CSP }] },
    ];
  },
};

export default nextConfig;
