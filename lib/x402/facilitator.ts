import { encodeFunctionData, getAddress, type Hex, parseAbi, parseSignature, recoverTypedDataAddress } from "viem";
import { networkRuntime } from "@/lib/chain/config";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { PaymentRequest } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";
import { authorizationDomain, EIP3009_TYPES, type RelayResult, relay, tokenAuthorizations } from "@/lib/relayer";
import { assertOpen, networkOfChainId, requestOfPayTo, requirementsOf, x402UnavailableReason } from "@/lib/x402/requirements";
import { chainIdOf, type FacilitatorRequest, type SettleResponse, type VerifyResponse, X402_VERSION } from "@/lib/x402/wire";

/**
 * The facilitator of x402's `exact` scheme on EVM (POST /verify, POST /settle), from the spec:
 * verify checks the EIP-3009 authorization against the requirements and the chain; settle submits
 * it through the signature relayer (lib/relayer relay()) under the authorization's own idempotency
 * key, so concurrent or repeated settles of one authorization make one transfer and one answer.
 * Only payments to a Duebill request are settled: `payTo` must be a request's deposit address and
 * the amount its full due amount (the fee included), so the relayer's gas only ever moves a
 * payment Duebill records, and no fee can be skipped.
 */
const eip3009Abi = parseAbi([
  "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)",
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "function balanceOf(address owner) view returns (uint256)",
]);

/** Settling happens this long before validBefore at the latest (a block must include it in time). */
const VALID_BEFORE_MARGIN_SECONDS = 6n;

class Invalid extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export interface CheckedAuthorization {
  network: NetworkId;
  payer: Hex;
  /** One relayed transaction per authorization, ever (EIP-3009 nonces are per token and authorizer). */
  key: string;
  data: Hex;
}

/** What needs neither the request nor the chain's state: versions, scheme, network, payTo/value, the signature. */
async function checkAuthorization(body: FacilitatorRequest): Promise<CheckedAuthorization> {
  const { paymentPayload: p, paymentRequirements: req } = body;
  if (body.x402Version !== X402_VERSION || p.x402Version !== X402_VERSION)
    throw new Invalid("invalid_x402_version", "Only x402 version 2 is supported");
  if (req.scheme !== "exact" || p.accepted.scheme !== "exact")
    throw new Invalid("unsupported_scheme", "Only the `exact` scheme is supported");
  const chainId = chainIdOf(req.network);
  const network = chainId === null ? null : networkOfChainId(chainId);
  if (!network || p.accepted.network !== req.network) throw new Invalid("invalid_network", `Network ${req.network} is not supported`);
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  if (!same(p.accepted.asset, req.asset) || !same(p.accepted.payTo, req.payTo) || p.accepted.amount !== req.amount)
    throw new Invalid("invalid_payment_requirements", "The payload's `accepted` requirements differ from paymentRequirements");
  const auth = p.payload.authorization;
  if (!same(auth.to, req.payTo)) throw new Invalid("invalid_exact_evm_recipient_mismatch", "The authorization's `to` is not payTo");
  if (auth.value !== req.amount)
    throw new Invalid("invalid_exact_evm_payload_authorization_value_mismatch", `The authorization's value must be ${req.amount}`);
  if (!tokenAuthorizations(network, req.asset)?.eip3009)
    throw new Invalid("invalid_exact_evm_eip3009_not_supported", "This asset has no EIP-3009 (transferWithAuthorization)");
  const domain = await authorizationDomain(network, req.asset);
  if (!domain) throw new Invalid("duebill_x402_unavailable", `No RPC is configured for ${networkRuntime(network).network.name}`);
  const message = {
    from: getAddress(auth.from),
    to: getAddress(auth.to),
    value: BigInt(auth.value),
    validAfter: BigInt(auth.validAfter),
    validBefore: BigInt(auth.validBefore),
    nonce: auth.nonce as Hex,
  };
  let signer: Hex;
  let sig: ReturnType<typeof parseSignature>;
  try {
    sig = parseSignature(p.payload.signature as Hex);
    signer = await recoverTypedDataAddress({
      domain,
      types: EIP3009_TYPES,
      primaryType: "TransferWithAuthorization",
      message,
      signature: p.payload.signature as Hex,
    });
  } catch {
    throw new Invalid("invalid_exact_evm_failed_to_parse_signature", "The signature cannot be parsed");
  }
  if (signer !== message.from) throw new Invalid("invalid_exact_evm_signature", "The signature is not the authorization's `from`'s");
  const data = encodeFunctionData({
    abi: eip3009Abi,
    functionName: "transferWithAuthorization",
    args: [
      message.from,
      message.to,
      message.value,
      message.validAfter,
      message.validBefore,
      message.nonce,
      Number(sig.v ?? BigInt(sig.yParity + 27)),
      sig.r,
      sig.s,
    ],
  });
  const key = `eip3009:${domain.chainId}:${req.asset.toLowerCase()}:${auth.from.toLowerCase()}:${auth.nonce.toLowerCase()}`;
  return { network, payer: message.from, key, data };
}

/** The Duebill request `payTo` pays, open for x402, and requirements equal to its own (amount incl. fee, asset, domain). */
async function checkRequest(body: FacilitatorRequest, a: CheckedAuthorization): Promise<PaymentRequest> {
  const req = body.paymentRequirements;
  const target = await requestOfPayTo(a.network, req.payTo);
  if (!target) throw new Invalid("invalid_exact_evm_recipient_mismatch", "payTo is not the deposit address of a Duebill request");
  const why = x402UnavailableReason(target.request);
  if (why) throw new Invalid(target.request.status === "paid" ? "duebill_request_already_paid" : "duebill_x402_unavailable", why);
  try {
    assertOpen(target.deposit);
  } catch (err) {
    throw new Invalid("duebill_x402_unavailable", (err as Error).message);
  }
  const own = await requirementsOf(target.request, target.deposit);
  if (own.asset.toLowerCase() !== req.asset.toLowerCase())
    throw new Invalid("invalid_exact_evm_asset_mismatch", `The asset must be ${own.asset}`);
  if (own.amount !== req.amount)
    throw new Invalid("invalid_exact_evm_payload_authorization_value_mismatch", `The request's due amount (fee included) is ${own.amount}`);
  if (req.extra.name !== own.extra.name) throw new Invalid("invalid_exact_evm_token_name_mismatch", `extra.name must be ${own.extra.name}`);
  if (req.extra.version !== own.extra.version)
    throw new Invalid("invalid_exact_evm_token_version_mismatch", `extra.version must be ${own.extra.version}`);
  // One x402 payment per request: another authorization already sent (or being sent) for it would be an excess.
  const other = await db().relayedTransaction.findFirst({
    where: { purpose: "x402", subjectId: target.request.id, status: { not: "failed" }, idempotencyKey: { not: a.key } },
  });
  if (other) throw new Invalid("duebill_request_payment_in_progress", "Another x402 payment of this request was settled already");
  return target.request;
}

/** The chain's view now: the time window (by the latest block), the nonce unused, the payer's balance. */
async function checkState(body: FacilitatorRequest, a: CheckedAuthorization): Promise<void> {
  const client = publicClientFor(a.network);
  if (!client) throw new Invalid("duebill_x402_unavailable", `No RPC is configured for ${networkRuntime(a.network).network.name}`);
  const auth = body.paymentPayload.payload.authorization;
  const asset = getAddress(body.paymentRequirements.asset);
  const [block, used, balance] = await Promise.all([
    client.getBlock({ blockTag: "latest" }),
    client.readContract({ address: asset, abi: eip3009Abi, functionName: "authorizationState", args: [a.payer, auth.nonce as Hex] }),
    client.readContract({ address: asset, abi: eip3009Abi, functionName: "balanceOf", args: [a.payer] }),
  ]);
  if (BigInt(auth.validAfter) > block.timestamp)
    throw new Invalid("invalid_exact_evm_payload_authorization_valid_after", "The authorization is not valid yet");
  if (BigInt(auth.validBefore) <= block.timestamp + VALID_BEFORE_MARGIN_SECONDS)
    throw new Invalid("invalid_exact_evm_payload_authorization_valid_before", "The authorization has expired");
  if (used) throw new Invalid("invalid_exact_evm_nonce_already_used", "This authorization was used or canceled");
  if (balance < BigInt(auth.value)) throw new Invalid("invalid_exact_evm_insufficient_balance", "The payer's balance is below the amount");
}

/** A refusal to answer in the body; an AppError as it is; anything else is the chain that could not be read (503, never a 500). */
function invalidOf(err: unknown): Invalid {
  if (err instanceof Invalid) return err;
  if (err instanceof AppError) throw err;
  log.warn("x402 facilitator: chain read failed", { err });
  throw new AppError("upstream_unavailable", "The chain cannot be read now; try again shortly");
}

/** POST /verify: whether settling `body` now would pay its request. */
export async function verifyPayment(body: FacilitatorRequest): Promise<VerifyResponse> {
  let payer: string | undefined;
  try {
    const a = await checkAuthorization(body);
    payer = a.payer;
    if (await db().relayedTransaction.findUnique({ where: { idempotencyKey: a.key } }))
      throw new Invalid("invalid_exact_evm_nonce_already_used", "This authorization was settled already");
    await checkRequest(body, a);
    await checkState(body, a);
    return { isValid: true, payer: a.payer };
  } catch (err) {
    const e = invalidOf(err);
    return { isValid: false, invalidReason: e.reason, invalidMessage: e.message, ...(payer ? { payer } : {}) };
  }
}

function settleAnswer(body: FacilitatorRequest, payer: string, r: RelayResult): SettleResponse {
  const network = body.paymentRequirements.network;
  if (r.status === "confirmed")
    return { success: true, payer, transaction: r.txHash ?? "", network, amount: body.paymentRequirements.amount };
  return {
    success: false,
    errorReason: r.status === "reverted" ? "invalid_exact_evm_transaction_failed" : "invalid_exact_evm_transaction_simulation_failed",
    errorMessage: r.error ?? "The transaction failed",
    payer,
    transaction: r.txHash ?? "",
    network,
  };
}

export interface Settled {
  response: SettleResponse;
  /** The request paid (null when the payload was refused before its request was known). */
  requestId: string | null;
}

/**
 * POST /settle: verifies, then submits the authorization once. An authorization settled before (or
 * being settled by a concurrent call) gets that settlement's answer again, whatever the request's
 * state is now: the answer is the authorization's, not the moment's.
 */
export async function settlePayment(body: FacilitatorRequest): Promise<Settled> {
  let payer: string | undefined;
  let requestId: string | null = null;
  let checked: CheckedAuthorization | null = null;
  try {
    const a = await checkAuthorization(body);
    checked = a;
    payer = a.payer;
    const replayed = await replayOf(body, a);
    if (replayed) return replayed;
    const request = await checkRequest(body, a);
    requestId = request.id;
    await checkState(body, a);
    const r = await relay({ ...relayInput(body, a), accountId: request.accountId, subjectId: request.id });
    return { response: settleAnswer(body, a.payer, r), requestId };
  } catch (err) {
    const e = invalidOf(err);
    // A concurrent call may have settled this very authorization between our read and the chain's
    // (its nonce now reads used): the answer is then that settlement's, as for every other caller.
    const replayed = checked ? await replayOf(body, checked).catch(() => null) : null;
    if (replayed) return replayed;
    const response: SettleResponse = {
      success: false,
      errorReason: e.reason,
      errorMessage: e.message,
      transaction: "",
      network: body.paymentRequirements.network,
      ...(payer ? { payer } : {}),
    };
    return { response, requestId };
  }
}

const relayInput = (body: FacilitatorRequest, a: CheckedAuthorization) => ({
  network: a.network,
  to: getAddress(body.paymentRequirements.asset),
  data: a.data,
  idempotencyKey: a.key,
  purpose: "x402",
});

/** The earlier (or concurrent) settlement of this authorization, waited for; null when there is none. */
async function replayOf(body: FacilitatorRequest, a: CheckedAuthorization): Promise<Settled | null> {
  const earlier = await db().relayedTransaction.findUnique({ where: { idempotencyKey: a.key } });
  if (!earlier) return null;
  if (earlier.purpose !== "x402" || !earlier.subjectId)
    throw new Invalid("invalid_exact_evm_nonce_already_used", "This authorization was used for another payment");
  const r = await relay(relayInput(body, a));
  return { response: settleAnswer(body, a.payer, r), requestId: earlier.subjectId };
}
