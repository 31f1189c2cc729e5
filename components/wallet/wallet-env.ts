/**
 * Client-side wallet settings. `NEXT_PUBLIC_*` values are inlined into the browser bundle by
 * `next build` (lib/env.ts is server-only and cannot reach client code), so this is the one
 * place client code reads one. WalletConnect stays off unless a project ID is configured:
 * its relay is contacted on page load, and the default set-up must work without internet.
 */
export const WALLETCONNECT_PROJECT_ID: string | undefined = process.env.NEXT_PUBLIC_WALLETCONNECT_PROJECT_ID || undefined;
