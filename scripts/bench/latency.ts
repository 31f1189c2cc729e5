/**
 * Detection latency, part of `npm run bench`: a devnet, the built app with the in-process
 * worker (woken by each new block over anvil's WebSocket, lib/detection/follow.ts; the 1 s
 * DETECTION_INTERVAL_MS only as the floor), payouts created over HTTP and paid from a viem
 * wallet; latency = from the payment's receipt to GET /v2/request/{id} showing it paid
 * (confirmation depth 0 on the devnet). With `depth` N > 0 the app waits N confirmations: after the
 * payment's receipt the bench mines N more blocks, 150 ms apart, checks the request is still unpaid
 * before the last one, and measures from the Nth confirmation (the block at payment + N, the first
 * the sweep may record it at) to the API showing it paid.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createPublicClient, createWalletClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { startDevnet } from "../devnet";

interface LatencyOptions {
  root: string;
  next: string;
  env: NodeJS.ProcessEnv;
  port: number;
  apiKey: string;
  payments: number;
  /** Confirmations the app waits for (0: the devnet's own). */
  depth?: number;
}

async function api(port: number, path: string, apiKey: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: body ? "POST" : "GET",
    headers: { "x-api-key": apiKey, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

export interface DetectionLatency {
  samplesMs: number[];
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

export async function measureDetectionLatency(o: LatencyOptions): Promise<DetectionLatency> {
  const devnet = await startDevnet({ port: 0 });
  const depth = o.depth ?? 0;
  let server: ChildProcess | undefined;
  try {
    const chainConfig = devnet.chainConfig() as Record<string, Record<string, unknown>>;
    for (const network of Object.values(chainConfig)) if (depth > 0) network.confirmations = depth;
    const env = { ...o.env, CHAIN_CONFIG: JSON.stringify(chainConfig), WORKER_INLINE: "true", DETECTION_INTERVAL_MS: "1000" };
    server = spawn(process.execPath, [o.next, "start", "--port", String(o.port), "--hostname", "127.0.0.1"], {
      cwd: o.root,
      env,
      stdio: ["ignore", "ignore", "inherit"],
    });
    for (let i = 0; i < 300; i++) {
      const ok = await fetch(`http://127.0.0.1:${o.port}/api/bench/empty`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const wallet = createWalletClient({
      account: privateKeyToAccount(devnet.accounts.payer.privateKey),
      chain: devnet.chain,
      transport: http(devnet.rpcUrl),
    });
    const pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) });
    const samplesMs: number[] = [];
    for (let i = 0; i < o.payments; i++) {
      const created = await api(o.port, "/v2/payouts", o.apiKey, {
        payee: devnet.accounts.payee.address,
        amount: `${i + 1}`,
        invoiceCurrency: "USDC-sepolia",
        paymentCurrency: "USDC-sepolia",
        payerWallet: devnet.accounts.payer.address,
      });
      if (created.status !== 201) throw new Error(`payout failed: ${JSON.stringify(created.json)}`);
      const txs = created.json.transactions as { to: `0x${string}`; data: `0x${string}` }[];
      let minedAt = 0;
      for (const tx of txs) {
        const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data });
        await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });
        minedAt = Date.now();
      }
      for (let k = 1; k <= depth; k++) {
        await new Promise((r) => setTimeout(r, 150));
        if (k === depth && (await api(o.port, `/v2/request/${created.json.requestId}`, o.apiKey)).json.hasBeenPaid === true)
          throw new Error(`paid before its ${depth}th confirmation`);
        await pub.request({ method: "evm_mine", params: [] } as never);
        minedAt = Date.now();
      }
      for (;;) {
        const s = await api(o.port, `/v2/request/${created.json.requestId}`, o.apiKey);
        if (s.json.hasBeenPaid === true) break;
        if (Date.now() - minedAt > 30_000) throw new Error("payment not detected within 30 s");
        await new Promise((r) => setTimeout(r, 25));
      }
      samplesMs.push(Date.now() - minedAt);
      // Spread payments over the sweep cycle so the samples cover its phases.
      await new Promise((r) => setTimeout(r, 337));
    }
    const sorted = [...samplesMs].sort((a, b) => a - b);
    return {
      samplesMs,
      medianMs: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
      p95Ms: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? Number.NaN,
      maxMs: sorted.at(-1) ?? Number.NaN,
    };
  } finally {
    server?.kill("SIGTERM");
    await devnet.stop();
  }
}
