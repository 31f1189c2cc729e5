import Link from "next/link";

export default function HomePage() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-4xl font-semibold tracking-tight">Duebill</h1>
      <p className="mt-4 text-lg text-slate-600">
        Open-source, non-custodial payment requests, payouts and secure payment links in stablecoins on seven EVM networks and Tron. The
        server returns calldata; wallets sign and send; Duebill watches the chain and tells you with signed webhooks.
      </p>
      <ul className="mt-8 space-y-2 text-slate-700">
        <li>
          <Link className="font-medium text-indigo-700 underline-offset-4 hover:underline" href="/docs">
            API reference
          </Link>{" "}
          — every endpoint, its parameters, credentials and errors.
        </li>
        <li>
          <a className="font-medium text-indigo-700 underline-offset-4 hover:underline" href="/v2/openapi.json">
            OpenAPI 3.1 document
          </a>{" "}
          — generate a client from it.
        </li>
      </ul>
    </main>
  );
}
