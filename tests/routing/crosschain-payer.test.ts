/**
 * Who paid a cross-chain payment (issue 24): the wallet that sent the source-chain transaction,
 * read from the source chain — not the `wallet=` a quote was made for. Wallet X (the devnet
 * payer, deny-listed here) pays a link with calldata quoted for a clean wallet Y: the payment
 * records X and screening rejects it. When the provider cannot say which source transaction
 * delivered the payment, the payer is unknown and the link stays pending (fail closed) until
 * detection can attribute it. Once on the devnet bridge, once with the LI.FI adapter on its
 * recorded status answer (the source transaction being a real one on the devnet source chain).
 */
import { type Address, createPublicClient, createWalletClient, erc20Abi, http, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { GET as payRequest } from "@/app/v2/request/[requestId]/pay/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { POST as createLink, GET as getSecurePayment } from "@/app/v2/secure-payments/route";
import { createSession } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { attributeCrossChainPayers, sweepDetectionNetwork } from "@/lib/detection/sweep";
import { reloadEnv } from "@/lib/env";
import { prefixedId, ulid } from "@/lib/ids";
import { DevnetBridgeProvider } from "@/lib/routing/devnet-bridge";
import { setRoutingProviderForTests } from "@/lib/routing/index";
import { LifiRoutingProvider } from "@/lib/routing/lifi";
import type { RoutingProvider } from "@/lib/routing/types";
import { type Devnet, devAccount } from "@/scripts/devnet";
import { BRIDGE_RELAYER_INDEX, type BridgeDevnet } from "@/scripts/devnet/bridge";
import { type BridgeRelayer, relayerFor } from "@/scripts/devnet/bridge-relayer";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useBridgeDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { fixture, replayFetch } from "@/tests/helpers/replay-fetch";

let devnet: Devnet;
let source: BridgeDevnet;
let relayer: BridgeRelayer;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let session: string;
/** The wallet named in the quote: clean, holds nothing. */
const CLAIMED = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  devnet = await useDevnet();
  source = await useBridgeDevnet(devnet);
  relayer = relayerFor(devnet, source, { log: () => {} }, false);
}, 120_000);
afterAll(async () => {
  relayer?.stop();
  await source?.stop();
  await stopDevnet(devnet);
});
beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
  const user = await db().user.create({
    data: { id: prefixedId("usr_"), accountId: a.account.id, email: `${prefixedId("u")}@example.com` },
  });
  session = (await createSession(user, "email")).token;
  const dest = await call(createDestination, "/v2/payee-destination", {
    method: "POST",
    headers: { authorization: `Bearer ${await walletSessionToken(a.account.id, devnet.accounts.payee.address)}` },
    json: { currency: "USDC-sepolia", walletAddress: devnet.accounts.payee.address },
  });
  expect(dest.status, JSON.stringify(dest.body)).toBe(201);
  // X, the wallet that really pays, is on the operator's deny list; Y (CLAIMED) is not.
  process.env.KYT_DENY_LIST = devnet.accounts.payer.address.toLowerCase();
  reloadEnv();
});
afterEach(() => {
  setRoutingProviderForTests(undefined);
  delete process.env.KYT_DENY_LIST;
  reloadEnv();
});

async function newLink(amount: string): Promise<{ token: string; requestId: string }> {
  const res = await call(createLink, "/v2/secure-payments", {
    method: "POST",
    headers: { "x-client-id": a.clientId },
    json: { requests: [{ amount }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { token: res.body.token, requestId: res.body.requestIds[0] };
}

const linkOf = (requestId: string) =>
  call(getSecurePayment, `/v2/secure-payments?requestId=${requestId}`, { headers: { authorization: `Bearer ${session}` } });
const requestOf = (requestId: string) =>
  call(getRequest, `/v2/request/${requestId}`, { headers: { "x-api-key": a.apiKey }, params: { requestId } });

/** The source-chain calldata quoted for CLAIMED, sent by X (the devnet payer); returns the deposit's hash. */
async function payQuotedForClaimed(requestId: string): Promise<`0x${string}`> {
  const res = await call(payRequest, `/v2/request/${requestId}/pay?wallet=${CLAIMED}&chain=ARBITRUM&token=USDC`, {
    headers: { "x-api-key": a.apiKey },
    params: { requestId },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.metadata.routeType).toBe("crosschain");
  const wallet = createWalletClient({
    account: privateKeyToAccount(devnet.accounts.payer.privateKey),
    chain: source.chain,
    transport: http(source.rpcUrl),
  });
  const pub = createPublicClient({ chain: source.chain, transport: http(source.rpcUrl) }) as PublicClient;
  let hash: `0x${string}` | undefined;
  for (const tx of res.body.transactions) {
    hash = await wallet.sendTransaction({ to: tx.to as Address, data: tx.data, value: BigInt(tx.value) });
    expect((await pub.waitForTransactionReceipt({ hash })).status).toBe("success");
  }
  return hash!;
}

describe("cross-chain payer attribution", () => {
  it("devnet bridge: calldata quoted for Y and sent by X records X as the payer, and X is screened (deny-listed: compliance_failed)", async () => {
    const { requestId } = await newLink("10");
    const sourceTx = await payQuotedForClaimed(requestId);
    expect(await relayer.tick()).toBe(1);
    await sweepDetectionNetwork(evmEventSource("sepolia")!);

    const payment = await db().payment.findFirstOrThrow({ where: { requestId } });
    // The destination transaction was sent by the bridge relayer; the quote named CLAIMED; X paid.
    const destTx = await createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }).getTransaction({
      hash: payment.txHash as `0x${string}`,
    });
    expect(destTx.from.toLowerCase()).toBe(devAccount(BRIDGE_RELAYER_INDEX).address.toLowerCase());
    expect(payment.payer?.toLowerCase()).toBe(devnet.accounts.payer.address.toLowerCase());
    expect((await requestOf(requestId)).body.payer?.toLowerCase()).toBe(devnet.accounts.payer.address.toLowerCase());
    const quote = await db().crossChainQuote.findFirstOrThrow({ where: { requestId } });
    expect(quote).toMatchObject({ payer: CLAIMED, sourceTxHash: sourceTx });

    const sp = await linkOf(requestId);
    expect(sp.body).toMatchObject({ status: "compliance_failed", payerAddress: devnet.accounts.payer.address });
    expect(sp.body.payerKytResults).toHaveLength(1);
    expect(sp.body.payerKytResults[0]).toMatchObject({
      walletAddress: devnet.accounts.payer.address,
      status: "rejected",
      reasonCode: "deny_listed",
    });
    expect(JSON.stringify(sp.body.payerKytResults)).not.toContain(CLAIMED);
  });

  it("devnet bridge: while the provider cannot name the source transaction the payer is unknown and the link stays pending; then X is attributed and screened", async () => {
    const { requestId } = await newLink("7");
    await payQuotedForClaimed(requestId);
    expect(await relayer.tick()).toBe(1);
    const real = new DevnetBridgeProvider();
    let down = true;
    const flaky: RoutingProvider = Object.assign(Object.create(real) as RoutingProvider, {
      name: real.name,
      sourceOf: async (input: Parameters<NonNullable<RoutingProvider["sourceOf"]>>[0]) => {
        if (down) throw new Error("provider status API unavailable");
        return real.sourceOf(input);
      },
    });
    setRoutingProviderForTests(flaky);
    await sweepDetectionNetwork(evmEventSource("sepolia")!);

    const payment = await db().payment.findFirstOrThrow({ where: { requestId } });
    // Not the bridge relayer that sent the destination transaction, not the quote's wallet: unknown.
    expect(payment.payer).toBeNull();
    expect((await requestOf(requestId)).body).toMatchObject({ hasBeenPaid: true, payer: null });
    expect((await linkOf(requestId)).body).toMatchObject({ status: "pending", payerAddress: null, payerKytResults: [] });
    // Still down: nothing changes.
    expect(await attributeCrossChainPayers()).toBe(0);
    expect((await linkOf(requestId)).body.status).toBe("pending");

    down = false;
    expect(await attributeCrossChainPayers()).toBe(1);
    expect((await db().payment.findFirstOrThrow({ where: { requestId } })).payer?.toLowerCase()).toBe(
      devnet.accounts.payer.address.toLowerCase(),
    );
    const sp = await linkOf(requestId);
    expect(sp.body).toMatchObject({ status: "compliance_failed", payerAddress: devnet.accounts.payer.address });
    expect(sp.body.payerKytResults[0]).toMatchObject({ walletAddress: devnet.accounts.payer.address, reasonCode: "deny_listed" });
  });

  it("LI.FI adapter on its recorded status answer: the payer is the sender of the source transaction LI.FI names, not the status's fromAddress nor the quote's wallet", async () => {
    const { requestId } = await newLink("4");
    const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
    // X's transaction on the source chain (standing in for the LI.FI diamond call): X sends USDC.
    const xWallet = createWalletClient({
      account: privateKeyToAccount(devnet.accounts.payer.privateKey),
      chain: source.chain,
      transport: http(source.rpcUrl),
    });
    const sourcePub = createPublicClient({ chain: source.chain, transport: http(source.rpcUrl) }) as PublicClient;
    const sourceTx = await xWallet.writeContract({
      address: source.tokens.USDC,
      abi: erc20Abi,
      functionName: "transfer",
      args: ["0x1231DEB6f5749EF6cE6943a275A1D3E7486F4EaE", 4_020_000n],
    });
    await sourcePub.waitForTransactionReceipt({ hash: sourceTx });
    // The quote GET /pay stored for CLAIMED through LI.FI (as lib/requests/pay-crosschain.ts writes it).
    await db().crossChainQuote.create({
      data: {
        id: ulid(),
        requestId,
        accountId: a.account.id,
        provider: "lifi",
        routeId: "ARBITRUM_SEPOLIA_USDC_USDC",
        sourceNetwork: "arbitrum-one",
        sourceToken: "USDC",
        sourceAmount: "4020000",
        payer: CLAIMED,
        expiresAt: new Date(Date.now() + 60_000),
        answer: "{}",
      },
    });
    // LI.FI's executor delivers on the destination: the fee proxy call with the request's reference.
    const executor = privateKeyToAccount(devAccount(BRIDGE_RELAYER_INDEX).privateKey);
    const plan = await call(payRequest, `/v2/request/${requestId}/pay?wallet=${executor.address}`, {
      headers: { "x-api-key": a.apiKey },
      params: { requestId },
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const dst = createWalletClient({ account: executor, chain: devnet.chain, transport: http(devnet.rpcUrl) });
    const dstPub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }) as PublicClient;
    let destTx: `0x${string}` | undefined;
    for (const tx of plan.body.transactions) {
      destTx = await dst.sendTransaction({ to: tx.to as Address, data: tx.data });
      await dstPub.waitForTransactionReceipt({ hash: destTx });
    }

    // LI.FI's recorded DONE/COMPLETED status, naming X's transaction on the source chain. Its
    // fromAddress is the quote's (anvil account 0 in the recording), which proves nothing.
    const recorded = fixture("lifi", "status-done-completed");
    const body = recorded.response.body as {
      sending: { txHash: string; chainId: number };
      receiving: { txHash: string };
      fromAddress: string;
    };
    body.sending.txHash = sourceTx;
    body.sending.chainId = source.chainId;
    body.receiving.txHash = destTx!;
    body.fromAddress = CLAIMED;
    const replay = replayFetch(() => recorded);
    setRoutingProviderForTests(new LifiRoutingProvider({ baseUrl: "https://li.quest", fetch: replay.fetch }));

    await sweepDetectionNetwork(evmEventSource("sepolia")!);
    expect(replay.calls).toHaveLength(1);
    expect(replay.calls[0]!.url.pathname).toBe("/v1/status");
    expect(replay.calls[0]!.url.searchParams.get("txHash")).toBe(destTx);
    expect(replay.calls[0]!.url.searchParams.get("fromChain")).toBe("42161");

    const payment = await db().payment.findFirstOrThrow({ where: { requestId } });
    expect(payment.payer?.toLowerCase()).toBe(devnet.accounts.payer.address.toLowerCase());
    expect(request.payer).toBeNull();
    const sp = await linkOf(requestId);
    expect(sp.body).toMatchObject({ status: "compliance_failed", payerAddress: devnet.accounts.payer.address });
    expect(sp.body.payerKytResults[0]).toMatchObject({ walletAddress: devnet.accounts.payer.address, reasonCode: "deny_listed" });
    const event = await db().outboxEvent.findFirst({ where: { requestId, type: "payment.confirmed" } });
    expect(JSON.parse(event!.payload).crossChain).toMatchObject({
      sourceTxHash: sourceTx,
      provider: "lifi",
      sourceNetwork: "arbitrum-one",
    });
  });

  it("LI.FI adapter: a status answer LI.FI cannot give (its 500) leaves the payer unknown and the link pending", async () => {
    const { requestId } = await newLink("3");
    await db().crossChainQuote.create({
      data: {
        id: ulid(),
        requestId,
        accountId: a.account.id,
        provider: "lifi",
        routeId: "ARBITRUM_SEPOLIA_USDC_USDC",
        sourceNetwork: "arbitrum-one",
        sourceToken: "USDC",
        sourceAmount: "3020000",
        payer: CLAIMED,
        expiresAt: new Date(Date.now() + 60_000),
        answer: "{}",
      },
    });
    const executor = privateKeyToAccount(devAccount(BRIDGE_RELAYER_INDEX).privateKey);
    const plan = await call(payRequest, `/v2/request/${requestId}/pay?wallet=${executor.address}`, {
      headers: { "x-api-key": a.apiKey },
      params: { requestId },
    });
    const dst = createWalletClient({ account: executor, chain: devnet.chain, transport: http(devnet.rpcUrl) });
    const dstPub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }) as PublicClient;
    for (const tx of plan.body.transactions)
      await dstPub.waitForTransactionReceipt({ hash: await dst.sendTransaction({ to: tx.to as Address, data: tx.data }) });
    const replay = replayFetch(() => fixture("lifi", "quote-500"));
    setRoutingProviderForTests(new LifiRoutingProvider({ baseUrl: "https://li.quest", fetch: replay.fetch }));
    await sweepDetectionNetwork(evmEventSource("sepolia")!);
    expect(replay.calls.length).toBeGreaterThan(0);
    expect((await db().payment.findFirstOrThrow({ where: { requestId } })).payer).toBeNull();
    expect((await linkOf(requestId)).body).toMatchObject({ status: "pending", payerKytResults: [] });
  });
});
