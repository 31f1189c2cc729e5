import { zeroAddress } from "viem";
import { db } from "@/lib/db";
import { prefixedId } from "@/lib/ids";

/**
 * A commerce payment authorized for 1 base unit on a stored request, as lib/commerce would keep it (no chain):
 * for tests that need an account's escrowed payment to exist (tests/operations/matrix.test.ts).
 */
export async function insertCommercePayment(requestId: string) {
  const r = await db().paymentRequest.findUniqueOrThrow({ where: { id: requestId } });
  const expiry = Math.floor(Date.now() / 1000) + 86_400;
  return db().commercePayment.create({
    data: {
      id: prefixedId("cpay"),
      accountId: r.accountId,
      requestId,
      network: r.network,
      escrowAddress: `0x${"e5".repeat(20)}`,
      paymentId: `0x${requestId.slice(2, 66).padEnd(64, "0")}`,
      info: {
        operator: `0x${"0a".repeat(20)}`,
        payer: `0x${"0b".repeat(20)}`,
        receiver: r.payee,
        token: r.tokenAddress,
        maxAmount: "1",
        preApprovalExpiry: expiry,
        authorizationExpiry: expiry,
        maxFeeBps: 0,
        feeReceiver: zeroAddress,
        paymentReference: r.paymentReference,
        salt: "1",
      },
      method: "signature",
      operator: `0x${"0a".repeat(20)}`,
      payer: `0x${"0b".repeat(20)}`,
      status: "authorized",
      authorizedAmount: 1,
      preApprovalExpiry: new Date(expiry * 1000),
      authorizationExpiry: new Date(expiry * 1000),
      fromBlock: 0n,
    },
  });
}
