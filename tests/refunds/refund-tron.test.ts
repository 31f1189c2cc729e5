/**
 * Refunds on Tron, checked against encoders outside Duebill's code:
 * - the refund reference against fixed vectors computed with js-sha3 0.8.0
 *   (`node -e 'require("js-sha3").keccak_256((id + salt + address).toLowerCase())'`, last 8 bytes),
 *   and against tronweb 6.5.1's keccak (TronWeb.sha3) at run time — never computePaymentReference;
 * - the calldata against tronweb's ABI encoder (utils.abi.encodeParams, given base58 addresses,
 *   writes the 20-byte account) and its function selector (TronWeb.sha3 of the signature);
 * - the contracts against the addresses docs/spec/chain-data.md publishes (USDT-tron, Tron ERC20FeeProxy).
 * Then detection: the refund's TransferWithReferenceAndFee, as the Tron event source normalises it,
 * is recorded once and raises payment.refunded.
 */
import { TronWeb, utils } from "tronweb";
import { beforeEach, describe, expect, it } from "vitest";
import { POST as createRefund } from "@/app/v2/request/[requestId]/refunds/route";
import { GET as getRequest } from "@/app/v2/request/[requestId]/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { db } from "@/lib/db";
import { recordTransfer } from "@/lib/detection/record-payment";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import type { PaymentEventSource, TransferEvent } from "@/lib/detection/types";
import { refundReferenceOf } from "@/lib/refunds";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

const PAYEE = "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW";
/** A payer address tronweb derives from a fixed key (not Duebill's hexToTron). */
const PAYER = TronWeb.address.fromPrivateKey("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318") as string;
/** From docs/spec/chain-data.md. */
const USDT_TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const TRON_FEE_PROXY = "TCUDPYnS9dH3WvFEaE7wN7vnDa51J4R4fd";
const ZERO = "0x0000000000000000000000000000000000000000";

/** keccak256 of a UTF-8 string, by tronweb (ethers' keccak underneath), 0x-prefixed. */
const tronKeccak = (s: string) => TronWeb.sha3(s) as string;

describe("refund reference: fixed vectors computed outside the code", () => {
  const id = `01${"7e".repeat(32)}`;
  const salt = "0123456789abcdef";
  it.each([
    ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "0x3f58a27529335aea"],
    [PAYEE, "0xd2ec791a3a847235"],
  ])("refundReferenceOf(…, %s) is js-sha3's %s, and tronweb's keccak agrees", (address, vector) => {
    expect(refundReferenceOf({ id, salt }, address)).toBe(vector);
    expect(`0x${tronKeccak(`${id}${salt}${address}`.toLowerCase()).slice(-16)}`).toBe(vector);
  });

  it("the vectors fail on plausible mistakes: no lowercasing, another salt", () => {
    expect(`0x${tronKeccak(`${id}${salt}${PAYEE}`).slice(-16)}`).not.toBe("0xd2ec791a3a847235");
    expect(refundReferenceOf({ id, salt }, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8")).not.toBe(
      refundReferenceOf({ id, salt: "fedcba9876543210" }, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"),
    );
  });
});

let a: Awaited<ReturnType<typeof makeIntegrator>>;
beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
});

function fakeTronSource(events: TransferEvent[]): PaymentEventSource {
  return {
    network: "tron",
    finalizedHead: async () => 200n,
    startBlock: async () => 90n,
    transfers: async (from, to) => events.filter((e) => e.blockNumber >= from && e.blockNumber <= to),
  };
}

const tronEvent = (
  e: Partial<TransferEvent> & { referenceHash: string; amount: bigint; blockNumber: bigint; txHash: string },
): TransferEvent => ({
  logIndex: 0,
  blockHash: `000000000000${e.blockNumber}`,
  blockTime: new Date("2026-11-27T12:00:00Z"),
  proxyAddress: TRON_FEE_PROXY,
  tokenAddress: USDT_TRON,
  to: PAYEE,
  feeAmount: 0n,
  feeAddress: null,
  from: PAYER,
  ...e,
});

describe("Tron refund calldata against tronweb, and its detection", () => {
  it("prepares approve + transferFromWithReferenceAndFee as tronweb encodes them; the refund transfer is recorded once", async () => {
    const created = await call(createRequest, "/v2/request", {
      method: "POST",
      headers: { "x-api-key": a.apiKey },
      json: { amount: "10", invoiceCurrency: "USDT-tron", paymentCurrency: "USDT-tron", payee: PAYEE },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const requestId = created.body.requestId as string;
    const request = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
    expect(
      await recordTransfer(
        request,
        tronEvent({ referenceHash: request.referenceHash, amount: 10_000_000n, blockNumber: 95n, txHash: "aa".repeat(32) }),
      ),
    ).toBe("recorded");

    const res = await call(createRefund, `/v2/request/${requestId}/refunds`, {
      method: "POST",
      headers: { "x-api-key": a.apiKey },
      params: { requestId },
      json: { amount: "4" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.refund).toMatchObject({ toAddress: PAYER, amount: "4", network: "tron", currency: "USDT-tron" });
    expect(res.body.metadata).toMatchObject({ wallet: PAYEE, needsApproval: true, stepsRequired: 2 });

    // The refund reference, computed by tronweb's keccak from the request's ID and salt and the payer's base58 address.
    const salt = request.salt;
    const reference = `0x${tronKeccak(`${requestId}${salt}${PAYER}`.toLowerCase()).slice(-16)}`;
    expect(res.body.refund.refundReference).toBe(reference);

    const [approve, transfer] = res.body.transactions as { to: string; data: string; value: { hex: string } }[];
    // approve(feeProxy, 4 USDT) on the USDT contract, as tronweb encodes it.
    expect(approve!.to).toBe(USDT_TRON);
    const approveSelector = tronKeccak("approve(address,uint256)").slice(0, 10);
    expect(approve!.data).toBe(`${approveSelector}${utils.abi.encodeParams(["address", "uint256"], [TRON_FEE_PROXY, 4_000_000]).slice(2)}`);
    // transferFromWithReferenceAndFee(USDT, payer, 4 USDT, reference, 0, 0x0) on the Tron ERC20FeeProxy.
    expect(transfer!.to).toBe(TRON_FEE_PROXY);
    const selector = tronKeccak("transferFromWithReferenceAndFee(address,address,uint256,bytes,uint256,address)").slice(0, 10);
    expect(selector).toBe("0xc219a14d");
    const params = utils.abi.encodeParams(
      ["address", "address", "uint256", "bytes", "uint256", "address"],
      [USDT_TRON, PAYER, 4_000_000, reference, 0, ZERO],
    );
    expect(transfer!.data).toBe(`${selector}${params.slice(2)}`);
    // The payer's 20-byte account sits in the calldata (tronweb's hex form without its 0x41 prefix).
    expect(transfer!.data).toContain((TronWeb.address.toHex(PAYER) as string).slice(2).toLowerCase());
    expect(transfer!.value).toEqual({ type: "BigNumber", hex: "0x0" });

    // The fee proxy's event carries keccak256 of the 8 reference bytes (tronweb's ethers keccak of the bytes).
    const topic = utils.ethersUtils.keccak256(reference);
    const refundTx = "bb".repeat(32);
    const source = fakeTronSource([
      tronEvent({ referenceHash: topic, amount: 4_000_000n, blockNumber: 120n, txHash: refundTx, to: PAYER, from: PAYEE }),
    ]);
    expect(await sweepDetectionNetwork(source)).toMatchObject({ recorded: 1 });
    await db().chainCursor.deleteMany();
    expect(await sweepDetectionNetwork(source)).toMatchObject({ recorded: 0, duplicates: 1 });

    const status = await call(getRequest, `/v2/request/${requestId}`, { headers: { "x-api-key": a.apiKey }, params: { requestId } });
    expect(status.body).toMatchObject({ refundedAmount: "4", refundStatus: "partially_refunded", refundableAmount: "6" });
    expect(status.body.refunds[0]).toMatchObject({ status: "confirmed", txHash: refundTx, toAddress: PAYER });
    const events = await db().outboxEvent.findMany({ where: { type: "payment.refunded" } });
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.payload)).toMatchObject({
      event: "payment.refunded",
      network: "tron",
      txHash: refundTx,
      refundAmount: "4",
      refundedAmount: "4",
      toAddress: PAYER,
    });
  });
});
