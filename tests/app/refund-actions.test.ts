/**
 * The request page's refund actions (app/dashboard/requests/actions.ts) against the real database,
 * as a merchant uses them: an empty form refunds everything still refundable to the payer; a typo
 * or too much is refused naming the form's field in words ("Amount …", "Refund to …") with what was
 * typed given back; the prepared refund's transactions are the payee's (approve, then the fee proxy
 * under the refund reference, no fee); the wallet's hash makes it sent; a sent refund has nothing
 * left to send; cancelling frees its amount. The browser checks the same schema first.
 */
import { decodeFunctionData, parseAbi } from "viem";
import { beforeAll, describe, expect, it, vi } from "vitest";

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
    delete: (name: string) => void jar.delete(name),
  }),
  headers: async () => new Headers({ "x-forwarded-for": "203.0.113.9" }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { cancelRefundAction, markRefundSentAction, prepareRefundAction, refundPlanAction } from "@/app/dashboard/requests/actions";
import { createSession, SESSION_COOKIE } from "@/lib/auth/sessions";
import { db } from "@/lib/db";
import { checkForm } from "@/lib/forms/form-state";
import { REFUND_FORM_FIELDS, refundFormBody, refundFormSchema } from "@/lib/forms/refund-form";
import { prefixedId, ulid } from "@/lib/ids";
import { EXCHANGE_WARNING, refundReferenceOf } from "@/lib/refunds";
import { requestDetail } from "@/lib/requests/request-detail";
import { resetDb } from "@/tests/helpers/db";
import { insertPaidRequest, makeIntegrator } from "@/tests/helpers/factories";

const PAYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const PAYEE = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const ELSEWHERE = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
const FEE_PROXY = parseAbi([
  "function transferFromWithReferenceAndFee(address _tokenAddress, address _to, uint256 _amount, bytes _paymentReference, uint256 _feeAmount, address _feeAddress)",
]);
const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};
const none = { error: null };
let accountId = "";
let requestId = "";

beforeAll(async () => {
  await resetDb();
  const a = await makeIntegrator();
  accountId = a.account.id;
  const user = await db().user.create({ data: { id: prefixedId("usr_"), accountId, email: `r-${ulid()}@refunds.test` } });
  jar.set(SESSION_COOKIE, (await createSession(user, "email")).token);
  // 10 USDC received by the payee, 0.25 USDC fee to the fee address.
  requestId = await insertPaidRequest(accountId, "USDC-base", 10_000_000n, 0, { payer: PAYER, feeAmount: 250_000n, hexId: true });
});

describe("the refund form, in the browser and on the server", () => {
  it("checks the amount with the token's decimals and an address's length, naming the fields in words", () => {
    const schema = refundFormSchema(6);
    expect(checkForm(schema, refundFormBody({ amount: "", to: "" }), REFUND_FORM_FIELDS)).toEqual({
      ok: true,
      data: { amount: undefined, to: undefined },
    });
    expect(checkForm(schema, refundFormBody({ amount: "1.1234567", to: "" }), REFUND_FORM_FIELDS)).toEqual({
      ok: false,
      fieldErrors: { amount: "Amount: at most 18 digits before the point and 6 after" },
    });
    expect(checkForm(schema, refundFormBody({ amount: "0", to: "" }), REFUND_FORM_FIELDS)).toEqual({
      ok: false,
      fieldErrors: { amount: "Amount must be greater than 0" },
    });
    expect(checkForm(schema, refundFormBody({ amount: "1", to: "x".repeat(101) }), REFUND_FORM_FIELDS)).toEqual({
      ok: false,
      fieldErrors: { to: "Refund to: at most 100 characters" },
    });
  });

  it("the page's refund context: what was received, the fee kept, the payer, the chain", async () => {
    const detail = await requestDetail(accountId, requestId);
    expect(detail.refunding).toMatchObject({
      decimals: 6,
      symbol: "USDC",
      payer: PAYER,
      received: "10",
      feeKept: "0.25",
      chain: { kind: "evm", chainId: 8453, name: "Base", nativeSymbol: "ETH", rpcUrl: null },
    });
    expect(detail.request.refundableAmount).toBe("10");
  });

  it("refuses in words, giving back what was typed: too many decimals, more than refundable, the payee itself, not an address", async () => {
    expect(await prepareRefundAction(none, form({ requestId, amount: "1.1234567", to: "" }))).toMatchObject({
      error: "Amount: at most 18 digits before the point and 6 after",
      field: "amount",
      values: { amount: "1.1234567", to: "" },
    });
    expect(await prepareRefundAction(none, form({ requestId, amount: "10.5", to: "" }))).toMatchObject({
      error: "Amount is more than what can still be refunded (10 USDC)",
      field: "amount",
      values: { amount: "10.5" },
    });
    expect(await prepareRefundAction(none, form({ requestId, amount: "1", to: PAYEE }))).toMatchObject({
      field: "to",
      error: expect.stringMatching(/^Refund to is the request's payee/),
    });
    expect(await prepareRefundAction(none, form({ requestId, amount: "1", to: "0x123" }))).toMatchObject({
      field: "to",
      error: expect.stringMatching(/^Refund to /),
    });
    expect(await db().refund.count({ where: { requestId } })).toBe(0);
    // Another account's (or a missing) request is not found, as in the API.
    expect(await prepareRefundAction(none, form({ requestId: `01${"0".repeat(64)}`, amount: "1" }))).toEqual({
      error: "Request not found",
      values: { amount: "1", to: "" },
    });
  });

  it("prepares a partial refund to the payer, sends it from the payee (no fee leg), reports it sent, then nothing is left to send", async () => {
    const out = await prepareRefundAction(none, form({ requestId, amount: "4", to: "" }));
    expect(out).toMatchObject({
      error: null,
      prepared: { amount: "4", toAddress: PAYER, warning: null, feeKept: "0.25", refundable: "6" },
    });
    const refundId = out.prepared!.refundId;
    const plan = await refundPlanAction({ requestId, refundId });
    expect(plan.error).toBeNull();
    expect(plan.plan?.metadata.needsApproval).toBe(true);
    const transfer = plan.plan!.transactions.at(-1)!;
    const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
    expect(decodeFunctionData({ abi: FEE_PROXY, data: transfer.data }).args).toEqual([
      request.tokenAddress,
      PAYER,
      4_000_000n,
      refundReferenceOf(request, PAYER),
      0n,
      "0x0000000000000000000000000000000000000000",
    ]);

    expect(await markRefundSentAction({ requestId, refundId, txHash: "0x12" })).toEqual({
      error: "txHash: must be a transaction hash (0x + 64 hex characters)",
      field: "txHash",
    });
    const hash = `0x${"ab".repeat(32)}`;
    expect(await markRefundSentAction({ requestId, refundId, txHash: hash })).toEqual({ error: null, status: "sent" });
    expect(await markRefundSentAction({ requestId, refundId, txHash: hash })).toEqual({ error: null, status: "sent" });
    expect((await refundPlanAction({ requestId, refundId })).error).toMatch(/^This refund is sent: there is nothing to send/);
    // A sent refund still holds its amount: 6 remain.
    expect((await requestDetail(accountId, requestId)).request.refundableAmount).toBe("6");
  });

  it("another address gets the exchange warning; cancelling frees the amount; cancelling twice changes nothing", async () => {
    const out = await prepareRefundAction(none, form({ requestId, amount: "", to: ELSEWHERE }));
    expect(out.prepared).toMatchObject({ amount: "6", toAddress: ELSEWHERE, warning: EXCHANGE_WARNING, refundable: "0" });
    expect(await prepareRefundAction(none, form({ requestId, amount: "1", to: "" }))).toMatchObject({
      error: "Amount: nothing is left to refund on this request",
    });
    const refundId = out.prepared!.refundId;
    expect(await cancelRefundAction(none, form({ requestId, refundId }))).toEqual({ error: null, cancelled: refundId });
    expect(await cancelRefundAction(none, form({ requestId, refundId }))).toEqual({ error: null, cancelled: refundId });
    expect((await requestDetail(accountId, requestId)).request.refundableAmount).toBe("6");
    expect(await cancelRefundAction(none, form({ requestId, refundId: "rfd_missing" }))).toEqual({ error: "Refund not found" });
  });
});
