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

/** Content-Security-Policy of every API answer: JSON is never rendered, so nothing may load and nothing may frame it. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

const COMMON = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin-allow-popups" },
  ...(production ? [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" }] : []),
];

/**
 * Browser-only stand-ins for library code that RainbowKit's provider references statically but a
 * payer never runs before picking a wallet (components/wallet/bundle-shims/: each file says what
 * it replaces and why it is safe). They keep viem's action graph, wagmi's `publicActions`
 * decoration, ENS Unicode tables and a user-agent database out of the JavaScript that must load
 * before the connect modal shows (`npm run bundle-size`, "usable page"). Server bundles are untouched.
 */
const BROWSER_SHIMS: Record<string, string> = {
  "viem/actions": "./components/wallet/bundle-shims/viem-actions.js",
  "@wagmi/core": "./components/wallet/bundle-shims/wagmi-core.js",
  "@adraffy/ens-normalize": "./components/wallet/bundle-shims/ens-normalize.js",
  "ua-parser-js": "./components/wallet/bundle-shims/ua-parser.js",
  cuer: "./components/wallet/bundle-shims/cuer.js",
};

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // pg and the Prisma adapter are server-only Node modules: keep them out of the bundler. pdfkit (and
  // fontkit, which it loads) read their own data files relative to __dirname (the sRGB ICC profile,
  // fontkit's tables): bundled, those paths would point into .next/ (lib/documents, #30); nodemailer is
  // the inline worker's mail transport (lib/mail); undici is the webhook HTTP client (lib/webhooks/http-post.ts),
  // Node-only, with optional modules (node:sqlite for its cache store) that Node 20 does not have.
  serverExternalPackages: [
    "pg",
    "@prisma/adapter-pg",
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pdfkit",
    "fontkit",
    "nodemailer",
    "undici",
  ],
  typedRoutes: false,
  turbopack: {
    resolveAlias: Object.fromEntries(Object.entries(BROWSER_SHIMS).map(([from, to]) => [from, { browser: to }])),
  },
  // A CORS preflight of the API, which proxy.ts marks with the route asked about (and only then:
  // it drops a client-sent header of that name), is answered by /api/cors-preflight.
  async rewrites() {
    return {
      beforeFiles: [
        { source: "/:path*", has: [{ type: "header", key: "x-duebill-preflight-route" }], destination: "/api/cors-preflight" },
        // The receipt keys' well-known URL (docs/guides/receipts.md): the App Router does not route a folder named `.well-known`.
        { source: "/.well-known/duebill-receipt-keys.json", destination: "/api/receipt-keys" },
      ],
      afterFiles: [],
      fallback: [],
    };
  },
  async headers() {
    return [
      { source: "/:path*", headers: COMMON },
      // Pages get the page CSP; the JSON API (/v1, /v2, /api, the prefixes alone included) gets one that
      // allows nothing: its answers are never rendered, and must not be framed if opened directly.
      { source: "/((?!(?:v1|v2|api)(?:/|$)).*)", headers: [{ key: "Content-Security-Policy", value: CSP }] },
      ...["/v1/:path*", "/v2/:path*", "/api/:path*"].map((source) => ({
        source,
        headers: [{ key: "Content-Security-Policy", value: API_CSP }],
      })),
    ];
  },
};

export default nextConfig;
