import { encodeFunctionData, erc20Abi, getAddress, type Hex, isAddress, keccak256, zeroAddress } from "viem";
import { commerceEscrowAbi } from "@/contracts/generated/abis.generated";
import { networkOf, storedTermsOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import { AppError, invalidField } from "@/lib/errors";
import { prefixedId } from "@/lib/ids";
import { authorizationDomain, EIP3009_TYPES, relay } from "@/lib/relayer";
import { getRequestOrThrow } from "@/lib/requests/get-request";
import { chainClient, chainHead, escrowAddressOf, relayerAddress } from "./chain";
import { type PaymentInfo, paymentIdOf, paymentInfoToJson, receiveAuthorizationMessage } from "./payment-info";
import { commercePaymentOrThrow, infoOf } from "./store";
import { applyEscrowLogs, syncCommercePayment } from "./sync";
import { commerceView } from "./view";

const HOUR = 3_600;
const DAY = 86_400;
const ZERO_VALUE = { type: "BigNumber" as const, hex: "0x0" as Hex };

export interface PrepareAuthorizationInput {
  requestId: string;
  payerAddress: string;
  method?: "signature" | "allowance";
  operatorWalletAddress?: string;
  preApprovalExpiry?: string;
  authorizationExpiry?: string;
}

/** An ISO 8601 time as unix seconds, or a 400 naming the field. */
function isoSeconds(value: string, field: string): number {
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(ms)) throw invalidField(field, "must be an ISO 8601 date-time");
  return Math.floor(ms / 1000);
}

/**
 * POST /v2/commerce-payments/authorize/calldata: binds the request to a PaymentInfo (payer, operator,
 * payee, token, amount + fee, deadlines, fee share, reference, a random salt) and hands out what the payer
 * signs (EIP-3009, one prompt, no gas) or sends (approve + authorizeWithAllowance: tokens without EIP-3009,
 * e.g. USDT). Nothing moves until then. Preparing again before anything reached the chain replaces it.
 */
export async function prepareAuthorization(accountId: string, input: PrepareAuthorizationInput) {
  const request = await getRequestOrThrow(accountId, input.requestId);
  if (request.kind !== "request") throw invalidField("requestId", "A payout cannot be paid by authorization");
  if (request.isConversion) throw invalidField("requestId", "A conversion (fiat-denominated) request cannot be paid by authorization");
  if (request.feeLegs) throw invalidField("requestId", "A request with several fee legs cannot be paid by authorization");
  if (request.status !== "pending" || BigInt(request.amountPaid.toFixed()) > 0n)
    throw invalidField("requestId", "The request is already paid or partly paid");
  const { network, runtime, token } = storedTermsOf(request);
  if (runtime.network.kind !== "evm") throw invalidField("requestId", `Authorizations are EVM-only (${network} is not)`);
  if (!isAddress(token.address) || getAddress(token.address) === zeroAddress)
    throw invalidField("requestId", "The native coin cannot be escrowed: use a token");
  const escrow = escrowAddressOf(network);
  if (!isAddress(input.payerAddress)) throw invalidField("payerAddress", "must be a 0x address");

  const eip3009 = token.authorizations?.eip3009 === true;
  const method = input.method ?? (eip3009 ? "signature" : "allowance");
  if (method === "signature" && !eip3009)
    throw invalidField(
      "method",
      `${token.symbol} on ${network} has no EIP-3009 authorization: use "allowance" (the payer sends the transaction)`,
    );

  const operatorInput = input.operatorWalletAddress;
  if (operatorInput !== undefined && !isAddress(operatorInput)) throw invalidField("operatorWalletAddress", "must be a 0x address");
  const operator = operatorInput ? getAddress(operatorInput) : relayerAddress();
  if (!operator)
    throw invalidField(
      "operatorWalletAddress",
      "required: this server has no signature relayer (SIGNATURE_RELAYER_PRIVATE_KEY) to operate for you",
    );

  const head = await chainHead(network);
  const authorizationExpiry = input.authorizationExpiry
    ? isoSeconds(input.authorizationExpiry, "authorizationExpiry")
    : head.time + 7 * DAY;
  if (authorizationExpiry <= head.time + 60) throw invalidField("authorizationExpiry", "must be in the future (by the chain's clock)");
  if (authorizationExpiry > head.time + 365 * DAY) throw invalidField("authorizationExpiry", "must be within a year");
  const preApprovalExpiry = input.preApprovalExpiry
    ? isoSeconds(input.preApprovalExpiry, "preApprovalExpiry")
    : Math.min(head.time + HOUR, authorizationExpiry);
  if (preApprovalExpiry <= head.time) throw invalidField("preApprovalExpiry", "must be in the future (by the chain's clock)");
  if (preApprovalExpiry > authorizationExpiry) throw invalidField("preApprovalExpiry", "must not be after authorizationExpiry");

  const existing = await db().commercePayment.findUnique({ where: { requestId: request.id } });
  if (existing && existing.status !== "created") throw new AppError("conflict", `The request is already ${existing.status}`);

  const amount = BigInt(request.expectedAmount.toFixed());
  const fee = BigInt(request.feeAmount.toFixed());
  const total = amount + fee;
  const info: PaymentInfo = {
    operator,
    payer: getAddress(input.payerAddress),
    receiver: getAddress(request.payee),
    token: getAddress(token.address),
    maxAmount: total,
    preApprovalExpiry,
    authorizationExpiry,
    // The smallest whole share that lets each capture carry its pro-rata fee (floor(amount × fee / total)).
    maxFeeBps: fee === 0n ? 0 : Number((fee * 10_000n + total - 1n) / total),
    feeReceiver: fee === 0n || !request.feeAddress ? zeroAddress : getAddress(request.feeAddress),
    paymentReference: request.paymentReference as Hex,
    salt: BigInt(keccak256(crypto.getRandomValues(new Uint8Array(32)))) >> 8n,
  };
  const paymentId = paymentIdOf(runtime.network.chainId, escrow, info);
  const data = {
    accountId,
    // Webhooks go where the request's go (its client ID's endpoints, else the account's).
    clientId: request.clientId,
    network,
    escrowAddress: escrow,
    paymentId,
    info: paymentInfoToJson(info),
    method,
    operator,
    payer: info.payer,
    status: "created",
    preApprovalExpiry: new Date(preApprovalExpiry * 1000),
    authorizationExpiry: new Date(authorizationExpiry * 1000),
    fromBlock: head.number,
  };
  const cp = existing
    ? await db().commercePayment.update({ where: { id: existing.id }, data })
    : await db().commercePayment.create({ data: { id: prefixedId("cpay"), requestId: request.id, ...data } });

  const authorization =
    method === "signature"
      ? await typedDataFor(network, runtime.network.chainId, escrow, info)
      : {
          transactions: [
            {
              to: info.token,
              data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [escrow, total] }),
              value: ZERO_VALUE,
            },
            {
              to: escrow,
              data: encodeFunctionData({ abi: commerceEscrowAbi, functionName: "authorizeWithAllowance", args: [info] }),
              value: ZERO_VALUE,
            },
          ],
        };
  return { ...(await commerceView(request, cp)), ...authorization };
}

async function typedDataFor(network: Parameters<typeof authorizationDomain>[0], chainId: number, escrow: Hex, info: PaymentInfo) {
  const domain = await authorizationDomain(network, info.token);
  if (!domain) throw invalidField("method", "The token's EIP-712 domain could not be read");
  const m = receiveAuthorizationMessage(chainId, escrow, info);
  return {
    typedData: {
      domain,
      types: { ReceiveWithAuthorization: EIP3009_TYPES.ReceiveWithAuthorization },
      primaryType: "ReceiveWithAuthorization" as const,
      message: { ...m, value: m.value.toString(), validAfter: m.validAfter.toString(), validBefore: m.validBefore.toString() },
    },
  };
}

/**
 * POST /v2/commerce-payments/{requestId}/authorize: Duebill's relayer submits the payer's signature
 * (authorizeWithSignature). One transaction per (payment, signature); the receipt drives the state.
 */
export async function authorizeWithSignature(accountId: string, requestId: string, body: { signature: string }) {
  const { request, cp: stored } = await commercePaymentOrThrow(accountId, requestId);
  const cp = await syncCommercePayment(stored);
  if (cp.method !== "signature")
    throw invalidField("signature", "This payment is authorized by allowance: the payer sends authorizeWithAllowance");
  if (cp.status !== "created") return commerceView(request, cp);
  if (!/^0x[0-9a-fA-F]{130}$/.test(body.signature)) throw invalidField("signature", "must be a 65-byte 0x hex signature");
  const head = await chainHead(storedTermsOf(request).network);
  if (head.time >= Math.floor(cp.preApprovalExpiry.getTime() / 1000))
    throw invalidField("preApprovalExpiry", "has passed: prepare the authorization again");
  const info = infoOf(cp);
  const result = await relay({
    network: storedTermsOf(request).network,
    to: cp.escrowAddress as Hex,
    data: encodeFunctionData({ abi: commerceEscrowAbi, functionName: "authorizeWithSignature", args: [info, body.signature as Hex] }),
    idempotencyKey: `escrow:authorize:${cp.paymentId}:${keccak256(body.signature as Hex)}`,
    purpose: "escrow_authorize",
    accountId,
    subjectId: cp.id,
  });
  return commerceView(request, await afterRelay(cp, result, "signature"));
}

/** Applies a relayed transaction's receipt; a failure is a 400 naming `field` with the chain's reason. */
export async function afterRelay(
  cp: Awaited<ReturnType<typeof syncCommercePayment>>,
  result: Awaited<ReturnType<typeof relay>>,
  field: string,
) {
  if (result.status !== "confirmed" || !result.txHash)
    throw invalidField(field, `The transaction would not succeed: ${result.error ?? result.status}`);
  const receipt = await chainClient(networkOf(cp)).getTransactionReceipt({ hash: result.txHash });
  return applyEscrowLogs(cp, receipt.logs);
}
