import {
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  hashTypedData,
  http,
  type PublicClient,
  parseUnits,
  zeroAddress,
} from "viem";
import { generatePrivateKey, privateKeyToAccount, sign } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { POST as recordIntent } from "@/app/v2/secure-payments/[token]/intent/route";
import { GET as payLink } from "@/app/v2/secure-payments/[token]/pay/route";
import { GET as pageView } from "@/app/v2/secure-payments/[token]/route";
import { POST as createPayoutLink } from "@/app/v2/secure-payments/payouts/route";
import { POST as createLink, GET as getSecurePayment } from "@/app/v2/secure-payments/route";
import { compiledContracts } from "@/contracts/generated/artifacts.generated";
import { createSession } from "@/lib/auth/sessions";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db";
import { evmEventSource } from "@/lib/detection/evm-source";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { prefixedId } from "@/lib/ids";
import { getPaymentPageOp, payLinkOp, recordSubmissionOp } from "@/lib/operations/secure-payments";
import { cancelSecurePayment } from "@/lib/secure-payments/cancel";
import type { Devnet } from "@/scripts/devnet";
import { resetDb } from "@/tests/helpers/db";
import { stopDevnet, useDevnet } from "@/tests/helpers/devnet-env";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { payLinkOnDevnet } from "@/tests/helpers/pay-link";
import { referenceResponseValidator, referenceSpec } from "@/tests/helpers/reference-schema";

/**
 * Safe payers of secure payment links (issue 29 item 4), on anvil. The real Safe contracts cannot
 * be installed here, so a Safe is played by STAND-INS with the Safe's ABI and hashes
 * (contracts/devnet/TestMultisigWallet.sol, 2-of-3 owners, and TestMultiSendCallOnly.sol). Proof
 * from outside the code: the stand-in's transaction hash equals viem's EIP-712 hash of the Safe's
 * documented SafeTx type; `multiSend(bytes)` has the Safe's selector 0x8d80ff0a; answers are held to
 * the reference's OpenAPI schemas (and its 423 example's fields) as well as Duebill's own.
 */

let devnet: Devnet;
let pub: PublicClient;
let a: Awaited<ReturnType<typeof makeIntegrator>>;
let session: string;

const SAFE_TX_TYPES = {
  SafeTx: [
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "data", type: "bytes" },
    { name: "operation", type: "uint8" },
    { name: "safeTxGas", type: "uint256" },
    { name: "baseGas", type: "uint256" },
    { name: "gasPrice", type: "uint256" },
    { name: "gasToken", type: "address" },
    { name: "refundReceiver", type: "address" },
    { name: "nonce", type: "uint256" },
  ],
} as const;
const multisigAbi = compiledContracts.TestMultisigWallet.abi;
const owners = [generatePrivateKey(), generatePrivateKey(), generatePrivateKey()]
  .map((key) => ({ key, address: privateKeyToAccount(key).address }))
  .sort((x, y) => (BigInt(x.address) < BigInt(y.address) ? -1 : 1));

beforeAll(async () => {
  devnet = await useDevnet();
  pub = createPublicClient({ chain: devnet.chain, transport: http(devnet.rpcUrl) }) as PublicClient;
}, 60_000);
afterAll(() => stopDevnet(devnet));
afterEach(() => setClock(null));

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
  expect(dest.status).toBe(201);
});

const deployer = () =>
  createWalletClient({
    account: privateKeyToAccount(devnet.accounts.deployer.privateKey),
    chain: devnet.chain,
    transport: http(devnet.rpcUrl),
  });
/** The executor: any funded account may run a Safe transaction once the owners signed (here the devnet's payer EOA). */
const executor = () =>
  createWalletClient({
    account: privateKeyToAccount(devnet.accounts.payer.privateKey),
    chain: devnet.chain,
    transport: http(devnet.rpcUrl),
  });

async function deploy(name: "TestMultisigWallet" | "TestMultiSendCallOnly", args: unknown[] = []): Promise<Hex> {
  const c = compiledContracts[name];
  const hash = await deployer().deployContract({ abi: c.abi, bytecode: c.bytecode as Hex, args } as never);
  const receipt = await pub.waitForTransactionReceipt({ hash });
  return getAddress(receipt.contractAddress!);
}

/** A 2-of-3 stand-in Safe holding 100 USDC. */
async function fundedSafe(): Promise<Hex> {
  const safe = await deploy("TestMultisigWallet", [owners.map((o) => o.address), 2n]);
  const mint = await deployer().writeContract({
    address: devnet.tokens.USDC,
    abi: compiledContracts.TestUSDC.abi,
    functionName: "mint",
    args: [safe, parseUnits("100", 6)],
  });
  await pub.waitForTransactionReceipt({ hash: mint });
  return safe;
}

const link = async (json: unknown = { requests: [{ amount: "25" }] }) => {
  const res = await call(createLink, "/v2/secure-payments", { method: "POST", headers: { "x-client-id": a.clientId }, json });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { token: string; requestIds: string[] };
};
const view = (token: string) => call(pageView, `/v2/secure-payments/${token}`, { params: { token } });
const plan = (token: string, query: string) => call(payLink, `/v2/secure-payments/${token}/pay?${query}`, { params: { token } });
const intent = (token: string, json: unknown) =>
  call(recordIntent, `/v2/secure-payments/${token}/intent`, { method: "POST", params: { token }, json });
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const HASH = `0x${"5a".repeat(32)}`;

/** The owners' signatures of `hash` (v 27/28, ascending owners), the first `n` of them. */
async function signatures(hash: Hex, n = 2): Promise<Hex> {
  const sigs = await Promise.all(owners.slice(0, n).map((o) => sign({ hash, privateKey: o.key, to: "hex" })));
  return `0x${sigs.map((s) => s.slice(2)).join("")}`;
}

function expectReference(method: string, path: string, status: number, body: unknown) {
  const validate = referenceResponseValidator(method, path, status);
  expect(validate, `the reference documents ${method} ${path} ${status}`).not.toBeNull();
  expect(validate!(body), JSON.stringify(validate!.errors)).toBe(true);
}

describe("a Safe pays a secure payment link", () => {
  it("isSafe plan → owners sign → intent with safeTxHash → 423 while pending → executed on anvil → detected, completed, the Safe as payer", async () => {
    const safe = await fundedSafe();
    const multiSend = await deploy("TestMultiSendCallOnly");
    const { token, requestIds } = await link();

    // 1. The plan for the Safe: the same transactions, each a CALL, read for the Safe (no gas check), and their multiSend.
    const planned = await plan(token, `wallet=${safe}&isSafe=true`);
    expect(planned.status, JSON.stringify(planned.body)).toBe(200);
    const p = planned.body;
    expect(p.paymentType).toBe("single");
    expect(p.transactions.length).toBeGreaterThanOrEqual(2); // approve, then the fee-proxy payment
    for (const t of p.transactions) expect(t.operation).toBe(0);
    expect(p.transactions[0].to.toLowerCase()).toBe(devnet.tokens.USDC.toLowerCase());
    expect(p.transactions[p.metadata.paymentTransactionIndex].to.toLowerCase()).toBe(devnet.contracts.erc20FeeProxy.toLowerCase());
    expect(p.metadata).toMatchObject({ isSafe: true, hasEnoughBalance: true, needsApproval: true });
    expect(p.metadata).not.toHaveProperty("hasEnoughGas");
    const expiresAt = (await db().securePayment.findUniqueOrThrow({ where: { token } })).expiresAt;
    expect(p.metadata.safePaymentDeadline).toBe(Math.floor(expiresAt.getTime() / 1000));
    // multiSend(bytes): the Safe's MultiSend selector; its argument packs every planned call.
    expect(p.metadata.multiSendData.slice(0, 10)).toBe("0x8d80ff0a");
    const { args } = decodeFunctionData({ abi: compiledContracts.TestMultiSendCallOnly.abi, data: p.metadata.multiSendData });
    for (const t of p.transactions) expect((args[0] as string).toLowerCase()).toContain(t.data.slice(2).toLowerCase());
    expect(payLinkOp.responses[200]!.schema!.safeParse(p).error).toBeUndefined();
    expectReference("GET", "/v2/secure-payments/{token}/pay", 200, p);

    // 2. The owners sign the Safe transaction: DELEGATECALL (1) of multiSendData into MultiSendCallOnly, at the Safe's nonce.
    const nonce = await pub.readContract({ address: safe, abi: multisigAbi, functionName: "nonce" });
    const safeTx = {
      to: multiSend,
      value: 0n,
      data: p.metadata.multiSendData as Hex,
      operation: 1,
      safeTxGas: 0n,
      baseGas: 0n,
      gasPrice: 0n,
      gasToken: zeroAddress,
      refundReceiver: zeroAddress,
      nonce,
    } as const;
    const safeTxHash = await pub.readContract({
      address: safe,
      abi: multisigAbi,
      functionName: "getTransactionHash",
      args: [safeTx.to, 0n, safeTx.data, 1, 0n, 0n, 0n, zeroAddress, zeroAddress, nonce],
    });
    // The stand-in hashes as a Safe does: the EIP-712 hash of the Safe's SafeTx type, domain {chainId, verifyingContract}.
    expect(safeTxHash).toBe(
      hashTypedData({
        domain: { chainId: devnet.chainId, verifyingContract: safe },
        types: SAFE_TX_TYPES,
        primaryType: "SafeTx",
        message: safeTx,
      }),
    );
    const sigs = await signatures(safeTxHash);
    // ERC-1271: the Safe "signed" the hash once its threshold of owners did; one owner is not enough.
    expect(await pub.readContract({ address: safe, abi: multisigAbi, functionName: "isValidSignature", args: [safeTxHash, sigs] })).toBe(
      "0x1626ba7e",
    );
    expect(
      await pub.readContract({
        address: safe,
        abi: multisigAbi,
        functionName: "isValidSignature",
        args: [safeTxHash, await signatures(safeTxHash, 1)],
      }),
    ).toBe("0xffffffff");

    // 3. The intent records the Safe transaction (the reference's example body).
    const deadline = inAnHour();
    const recorded = await intent(token, {
      safeTxHash,
      chain: "SEPOLIA",
      token: "USDC",
      safePaymentDeadline: deadline,
      payerAddress: safe,
    });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    expect(recorded.body).toMatchObject({
      safeTxHash: safeTxHash.toLowerCase(),
      safePaymentDeadline: deadline,
      isListening: true,
      payerAddress: safe,
    });
    expect(recordSubmissionOp.responses[200]!.schema!.safeParse(recorded.body).error).toBeUndefined();
    expectReference("POST", "/v2/secure-payments/{token}/intent", 200, recorded.body);
    // The same body again: the same answer, one row.
    const again = await intent(token, { safeTxHash, chain: "SEPOLIA", token: "USDC", safePaymentDeadline: deadline, payerAddress: safe });
    expect(again.body).toEqual(recorded.body);
    expect(await db().safePaymentIntent.count()).toBe(1);

    // 4. 423 while the owners' transaction is pending: the reference's body (its example's fields), on the view and on others' plans.
    const locked = await view(token);
    expect(locked.status).toBe(423);
    expect(locked.body).toMatchObject({
      statusCode: 423,
      error: "Locked",
      message: "Secure payment is in progress",
      code: "payment_in_progress",
      status: "pending",
      branding: null,
      requestStatuses: [
        {
          requestId: requestIds[0],
          hasBeenPaid: false,
          safeTxHash: safeTxHash.toLowerCase(),
          chainId: devnet.chainId,
          safePaymentDeadline: deadline,
        },
      ],
    });
    expect(getPaymentPageOp.responses[423]!.schema!.safeParse(locked.body).error).toBeUndefined();
    const example = referenceExample423();
    expect(Object.keys(locked.body)).toEqual(expect.arrayContaining(Object.keys(example)));
    expect(Object.keys(locked.body.requestStatuses[0]).sort()).toEqual(Object.keys(example.requestStatuses[0] ?? {}).sort());
    expect((await plan(token, `wallet=${devnet.accounts.payer.address}`)).status).toBe(423);
    // The Safe itself may read its plan again (e.g. to propose a replacement transaction).
    expect((await plan(token, `wallet=${safe}&isSafe=true`)).status).toBe(200);
    // The merchant cannot cancel the link under the owners' feet.
    await expect(cancelSecurePayment(a.account.id, token, "test")).rejects.toThrow(/Safe transaction/);

    // 5. An owner-collected transaction runs on anvil (the executor pays the gas), then detection.
    const balanceBefore = await pub.readContract({ address: devnet.tokens.USDC, abi: erc20Abi, functionName: "balanceOf", args: [safe] });
    const exec = await executor().writeContract({
      address: safe,
      abi: multisigAbi,
      functionName: "execTransaction",
      args: [multiSend, 0n, safeTx.data, 1, 0n, 0n, 0n, zeroAddress, zeroAddress, sigs],
    });
    const receipt = await pub.waitForTransactionReceipt({ hash: exec });
    expect(receipt.status).toBe("success");
    const balanceAfter = await pub.readContract({ address: devnet.tokens.USDC, abi: erc20Abi, functionName: "balanceOf", args: [safe] });
    expect(balanceBefore - balanceAfter).toBeGreaterThanOrEqual(parseUnits("25", 6));
    await sweepDetectionNetwork(evmEventSource("sepolia")!);

    // 6. Completed: the view answers 200 again; the payer is the Safe (the executor only sent the transaction).
    const done = await view(token);
    expect(done.status).toBe(200);
    expect(done.body.status).toBe("completed");
    const payment = await db().payment.findFirstOrThrow({ where: { requestId: requestIds[0] } });
    expect(payment.payer?.toLowerCase()).toBe(safe.toLowerCase());
    expect(payment.txHash.toLowerCase()).toBe(exec.toLowerCase());
    const sp = await call(getSecurePayment, `/v2/secure-payments?requestId=${requestIds[0]}`, {
      headers: { authorization: `Bearer ${session}` },
    });
    expect(sp.body).toMatchObject({ status: "completed" });
    expect(sp.body.payerAddress.toLowerCase()).toBe(safe.toLowerCase());
    expect(await db().outboxEvent.count({ where: { type: "payment.confirmed", requestId: requestIds[0] } })).toBe(1);
    // A paid link: the plan says so (409), Safe or not.
    expect((await plan(token, `wallet=${safe}&isSafe=true`)).status).toBe(409);
  });

  it("after the deadline passes without execution the link is payable again (by anyone)", async () => {
    const { token } = await link();
    const deadline = inAnHour();
    expect((await intent(token, { safeTxHash: HASH, chain: "sepolia", token: "USDC-sepolia", safePaymentDeadline: deadline })).status).toBe(
      200,
    );
    expect((await view(token)).status).toBe(423);
    setClock(() => deadline * 1000 + 1);
    expect((await view(token)).status).toBe(200);
    expect((await view(token)).body.status).toBe("pending");
    setClock(null);
    // A new Safe transaction replaces the first (one per link); an ISO deadline works too.
    const other = `0x${"6b".repeat(32)}`;
    const iso = new Date(Date.now() + 7200_000).toISOString();
    const replaced = await intent(token, { safeTxHash: other, chain: "SEPOLIA", token: "USDC", safePaymentDeadline: iso });
    expect(replaced.body.safePaymentDeadline).toBe(Math.floor(Date.parse(iso) / 1000));
    const locked = await view(token);
    expect(locked.body.requestStatuses[0].safeTxHash).toBe(other);
    expect(await db().safePaymentIntent.count()).toBe(1);
    setClock(() => Date.parse(iso) + 1);
    // Past the deadline an EOA pays from the page as usual.
    await payLinkOnDevnet(devnet, pub, token);
    expect((await view(token)).body.status).toBe("completed");
  });

  it("without a deadline the link waits until it expires; a batch link's statuses list each request", async () => {
    const { token, requestIds } = await link({ requests: [{ amount: "1" }, { amount: "2" }] });
    const safe = await fundedSafe();
    const planned = await plan(token, `wallet=${safe}&isSafe=true`);
    expect(planned.status).toBe(200);
    expect(planned.body.paymentType).toBe("batch");
    expect(planned.body.transactions.every((t: { operation: number }) => t.operation === 0)).toBe(true);
    expectReference("GET", "/v2/secure-payments/{token}/pay", 200, planned.body);
    expect((await intent(token, { safeTxHash: HASH, chain: "SEPOLIA", token: "USDC", payerAddress: safe })).status).toBe(200);
    const expiresAt = (await db().securePayment.findUniqueOrThrow({ where: { token } })).expiresAt;
    const locked = await view(token);
    expect(locked.body.requestStatuses.map((s: { requestId: string }) => s.requestId)).toEqual(requestIds);
    expect(locked.body.requestStatuses[0].safePaymentDeadline).toBe(Math.floor(expiresAt.getTime() / 1000));
  });
});

describe("refused with a 400 naming the field", () => {
  it("a Tron link: isSafe and safeTxHash (EVM only)", async () => {
    const res = await call(createPayoutLink, "/v2/secure-payments/payouts", {
      method: "POST",
      headers: { "x-api-key": a.apiKey },
      json: {
        recipient: "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW",
        creatorWalletAddress: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
        network: "tron",
        currency: "USDT-tron",
        amount: "5",
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const token = res.body.token as string;
    const planned = await plan(token, "wallet=TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf&isSafe=true");
    expect(planned.status).toBe(400);
    expect(planned.body.errors[0].field).toBe("isSafe");
    const recorded = await intent(token, { safeTxHash: HASH, chain: "TRON", token: "USDT" });
    expect(recorded.status).toBe(400);
    expect(recorded.body.errors[0].field).toBe("safeTxHash");
  });

  it("bad safeTxHash, wrong or missing chain and token, deadlines out of range, conflicting plan parameters", async () => {
    const { token } = await link();
    const field = async (body: unknown) => {
      const res = await intent(token, body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return res.body.errors[0].field as string;
    };
    const ok = { safeTxHash: HASH, chain: "SEPOLIA", token: "USDC" };
    expect(await field({ ...ok, safeTxHash: "0x1234" })).toBe("safeTxHash");
    expect(await field({ ...ok, safeTxHash: "5a".repeat(32) })).toBe("safeTxHash"); // no 0x
    expect(await field({ ...ok, safeTxHash: `0x${"zz".repeat(32)}` })).toBe("safeTxHash");
    expect(await field({ ...ok, chain: "BASE" })).toBe("chain");
    expect(await field({ safeTxHash: HASH, token: "USDC" })).toBe("chain");
    expect(await field({ ...ok, token: "USDT" })).toBe("token");
    expect(await field({ safeTxHash: HASH, chain: "SEPOLIA" })).toBe("token");
    expect(await field({ ...ok, safePaymentDeadline: Math.floor(Date.now() / 1000) - 60 })).toBe("safePaymentDeadline");
    expect(await field({ ...ok, safePaymentDeadline: "2020-01-01T00:00:00Z" })).toBe("safePaymentDeadline");
    expect(await field({ ...ok, safePaymentDeadline: "tomorrow" })).toBe("safePaymentDeadline");
    // Milliseconds by mistake land far past the link's expiry.
    expect(await field({ ...ok, safePaymentDeadline: Date.now() + 3600_000 })).toBe("safePaymentDeadline");
    expect(await field({ ...ok, payerAddress: "0x1234" })).toBe("payerAddress");
    expect(await field({ txHash: `0x${"ab".repeat(32)}`, safePaymentDeadline: inAnHour() })).toBe("safePaymentDeadline");
    expect(await db().safePaymentIntent.count()).toBe(0);
    expect((await view(token)).status).toBe(200);

    const planField = async (query: string) => {
      const res = await plan(token, query);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return res.body.errors[0].field as string;
    };
    const safe = devnet.accounts.payee.address;
    expect(await planField(`wallet=${safe}&isSafe=true&eoaWallet=${devnet.accounts.payer.address}`)).toBe("eoaWallet");
    expect(await planField(`wallet=${safe}&isSafe=true&chain=BASE&token=USDC`)).toBe("isSafe");
    expect(await planField("wallet=TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf&isSafe=true")).toBe("wallet");
  });

  it("a link that names its payers: the intent must name an allowed Safe", async () => {
    const safe = await fundedSafe();
    const { token } = await link({ requests: [{ amount: "5" }], accessPolicy: { mode: "off", allowedPayerAddresses: [safe] } });
    const ok = { safeTxHash: HASH, chain: "SEPOLIA", token: "USDC" };
    const unnamed = await intent(token, ok);
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.errors[0].field).toBe("payerAddress");
    expect((await intent(token, { ...ok, payerAddress: devnet.accounts.payer.address })).status).toBe(403);
    expect((await intent(token, { ...ok, payerAddress: safe })).status).toBe(200);
  });
});

/** The reference's documented 423 example of GET /v2/secure-payments/{token} (spec/reference-openapi.v2.json). */
function referenceExample423(): { requestStatuses: Record<string, unknown>[] } & Record<string, unknown> {
  // biome-ignore lint/suspicious/noExplicitAny: the reference document is read as plain JSON
  const spec = referenceSpec() as any;
  return spec.paths["/v2/secure-payments/{token}"].get.responses["423"].content["application/json"].examples.paymentInProgress.value;
}
