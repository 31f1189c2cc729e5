import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createPublicClient, createWalletClient, http as viemHttp } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createWebhook } from "@/app/v1/webhook/route";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { reloadEnv } from "@/lib/env";
import { deliverDue } from "@/lib/webhooks/deliver";
import { verifySignature } from "@/lib/webhooks/sign";
import { sweepWebhooks } from "@/lib/webhooks/sweep";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { testDatabaseUrl } from "@/tests/helpers/test-db-url";

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

/** A receiver on loopback that checks x-duebill-signature over the raw body (401 on mismatch). */
function startReceiver(secretRef: { secret: string }, behaviour: (n: number) => "ok" | "fail" | "hang" = () => "ok") {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      received.push({ headers: req.headers, raw });
      const mode = behaviour(received.length);
      if (mode === "hang") return; // never answers: the sender is killed meanwhile
      if (!verifySignature(secretRef.secret, raw, req.headers["x-duebill-signature"] as string)) return void res.writeHead(401).end();
      res.writeHead(mode === "ok" ? 200 : 500).end();
    });
  });
  return new Promise<{ url: string; received: Received[]; close: () => Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        received,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}

let devnet: Devnet;
let a: Awaited<ReturnType<typeof makeIntegrator>>;

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  devnet = await useDevnet();
}, 60_000);

afterAll(async () => {
  await stopDevnet(devnet);
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  reloadEnv();
});

beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
});

async function payOnDevnet(clientId: string) {
  const res = await call(createPayout, "/v2/payouts", {
    method: "POST",
    headers: { "x-client-id": clientId },
    json: {
      payee: devnet.accounts.payee.address,
      amount: "42",
      invoiceCurrency: "USDC-sepolia",
      paymentCurrency: "USDC-sepolia",
      payerWallet: devnet.accounts.payer.address,
    },
  });
  expect(res.status).toBe(201);
  const wallet = createWalletClient({
    account: privateKeyToAccount(devnet.accounts.payer.privateKey),
    chain: devnet.chain,
    transport: viemHttp(devnet.rpcUrl),
  });
  const pub = createPublicClient({ chain: devnet.chain, transport: viemHttp(devnet.rpcUrl) });
  for (const tx of res.body.transactions)
    await pub.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: tx.to, data: tx.data }) });
  await sweepDetectionNetwork(evmEventSource("sepolia")!);
  return res.body.requestId as string;
}

describe("payment.confirmed delivery", () => {
  it("a devnet payment reaches a receiver that verifies the signature over the raw body", async () => {
    const secretRef = { secret: "" };
    const receiver = await startReceiver(secretRef);
    try {
      const hook = await call(createWebhook, "/v1/webhook", {
        method: "POST",
        headers: { "x-client-id": a.clientId },
        json: { url: receiver.url },
      });
      expect(hook.status).toBe(201);
      secretRef.secret = hook.body.secret;
      const requestId = await payOnDevnet(a.clientId);
      const sweep = await sweepWebhooks();
      expect(sweep).toMatchObject({ succeeded: 1 });
      expect(receiver.received).toHaveLength(1);
      const got = receiver.received[0]!;
      expect(JSON.parse(got.raw.toString("utf8"))).toMatchObject({
        event: "payment.confirmed",
        requestId,
        requestID: requestId,
        amount: "42",
        network: "sepolia",
      });
      expect(got.headers["x-duebill-delivery"]).toMatch(/^[0-9A-Z]{26}$/);
      expect(got.headers["x-duebill-retry-count"]).toBe("0");
      expect(got.headers["webhook-id"]).toBe(got.headers["x-duebill-delivery"]);
      expect(got.headers["webhook-signature"]).toMatch(/^v1,/);
    } finally {
      await receiver.close();
    }
  });

  it("loses nothing when the worker process is killed mid-delivery", async () => {
    const secretRef = { secret: "" };
    const receiver = await startReceiver(secretRef, (n) => (n === 1 ? "hang" : "ok"));
    let worker: ChildProcess | undefined;
    try {
      const hook = await call(createWebhook, "/v1/webhook", {
        method: "POST",
        headers: { "x-client-id": a.clientId },
        json: { url: receiver.url },
      });
      secretRef.secret = hook.body.secret;
      await payOnDevnet(a.clientId);
      const root = path.resolve(__dirname, "../..");
      // node itself runs the worker (tsx as a loader, not a wrapper process), so SIGKILL hits the worker.
      worker = spawn(process.execPath, ["--import", "tsx", "scripts/runtime/worker.ts"], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: testDatabaseUrl(), WEBHOOK_ALLOW_PRIVATE: "true", CHAIN_CONFIG: "{}", LOG_LEVEL: "error" },
        stdio: "ignore",
      });
      for (let i = 0; i < 200 && receiver.received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(receiver.received).toHaveLength(1);
      worker.kill("SIGKILL");
      await new Promise((r) => worker?.once("exit", r));
      const stuck = await db().webhookDelivery.findFirstOrThrow();
      expect(stuck.status).toBe("pending");
      expect(stuck.leaseUntil).not.toBeNull();
      // Nothing else may take it while the dead worker's lease runs; afterwards the next sweep delivers it.
      expect((await deliverDue()).claimed).toBe(0);
      const afterLease = new Date(stuck.leaseUntil!.getTime() + 1000);
      expect(await deliverDue({ now: afterLease })).toMatchObject({ claimed: 1, succeeded: 1 });
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[1]!.headers["x-duebill-delivery"]).toBe(stuck.id);
      expect(receiver.received[0]!.headers["x-duebill-delivery"]).toBe(stuck.id);
    } finally {
      worker?.kill("SIGKILL");
      await receiver.close();
    }
  }, 60_000);
});
