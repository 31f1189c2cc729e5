import { randomBytes } from "node:crypto";
import { verifyTypedData } from "viem";
import { asEvmAddress, asHex, isEvmAddress, sameAddress } from "@/lib/chain/address";
import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { receivingCurrencyAt } from "@/lib/destinations/receiving";
import { invalidField } from "@/lib/errors";
import { prefixedId } from "@/lib/ids";

/**
 * Proof that the caller controls a wallet before it becomes a payee destination (or stops
 * being one). A wallet session proves its own address; otherwise (and always with a client ID,
 * which has no wallet session) the wallet signs EIP-712 typed data from
 * GET /v2/payee-destination/signing-data (the reference's flow): one nonce, bound to the
 * account, the action, the wallet, token and chain, valid 5 minutes, single use.
 * Tron wallets prove control by signing in with the wallet (TRON message signing).
 */
const TTL_MS = 5 * 60 * 1000;
/** Signing sessions share the wallet-challenge table with SIWE sign-in challenges; this prefix tells them apart. */
const CHALLENGE_PREFIX = "pdc_";

export type DestinationAction = "add" | "deactivate";

export interface SigningDataInput {
  walletAddress: string;
  action: DestinationAction;
  tokenAddress: string;
  chainId: number;
}

const TYPES = {
  PayeeDestination: [
    { name: "action", type: "string" },
    { name: "walletAddress", type: "address" },
    { name: "tokenAddress", type: "address" },
    { name: "chainId", type: "uint256" },
    { name: "account", type: "string" },
    { name: "nonce", type: "string" },
    { name: "expiresAt", type: "uint256" },
  ],
} as const;

function typedData(accountId: string, input: SigningDataInput, nonce: string, expiresAt: number) {
  return {
    domain: { name: "Duebill payee destinations", version: "1", chainId: input.chainId },
    types: TYPES,
    primaryType: "PayeeDestination" as const,
    message: {
      action: input.action,
      walletAddress: asEvmAddress(input.walletAddress),
      tokenAddress: asEvmAddress(input.tokenAddress),
      chainId: BigInt(input.chainId),
      account: accountId,
      nonce,
      expiresAt: BigInt(Math.floor(expiresAt / 1000)),
    },
  };
}

export async function createSigningData(accountId: string, input: SigningDataInput) {
  if (!isEvmAddress(input.walletAddress)) {
    throw invalidField("walletAddress", "EVM address expected; a Tron wallet proves control by signing in with the wallet");
  }
  if (!isEvmAddress(input.tokenAddress)) throw invalidField("tokenAddress", "EVM address expected");
  // A registration's token must be one a destination receives (a deactivation names the destination's own).
  if (input.action === "add") receivingCurrencyAt(input.chainId, input.tokenAddress, "tokenAddress");
  const nonce = randomBytes(16).toString("hex");
  const expiresAt = nowMs() + TTL_MS;
  const data = typedData(accountId, input, nonce, expiresAt);
  await db().walletChallenge.create({
    data: {
      id: prefixedId(CHALLENGE_PREFIX),
      address: input.walletAddress.toLowerCase(),
      chainKind: "evm",
      chainId: input.chainId,
      nonce,
      message: JSON.stringify({ accountId, ...input }),
      expiresAt: new Date(expiresAt),
    },
  });
  // uint256 values travel as decimal strings in JSON (wallets accept them in eth_signTypedData_v4).
  const message = { ...data.message, chainId: data.message.chainId.toString(), expiresAt: data.message.expiresAt.toString() };
  return { ...data, message, nonce, expiresAt: new Date(expiresAt).toISOString() };
}

/**
 * A bad proof is bad input: 400 naming `nonce` (unknown, used, expired, or issued for another
 * account, action, wallet, token or chain) or `signature` (not the wallet's), as the reference
 * answers. A missing proof where one is needed is the caller's business (403 or 400 there).
 */
const badNonce = (why: string) => invalidField("nonce", why);
const UNKNOWN = "unknown, used or expired: get a new one from GET /v2/payee-destination/signing-data";

/** The open (unused, unexpired) signing session of `nonce`; SIWE sign-in challenges never qualify. */
async function openChallenge(nonce: string) {
  const challenge = await db().walletChallenge.findFirst({ where: { nonce, id: { startsWith: CHALLENGE_PREFIX } } });
  if (!challenge || challenge.usedAt || challenge.expiresAt.getTime() <= nowMs()) throw badNonce(UNKNOWN);
  return { challenge, signed: JSON.parse(challenge.message) as SigningDataInput & { accountId: string } };
}

/**
 * What an open nonce of the account was issued for: the reference's bodies carry only `nonce` and
 * `signature`, the wallet, token and chain being those of the signing data.
 */
export async function proofTarget(accountId: string, nonce: string, action: DestinationAction): Promise<SigningDataInput> {
  const { signed } = await openChallenge(nonce);
  if (signed.accountId !== accountId) throw badNonce(UNKNOWN);
  if (signed.action !== action) throw badNonce(`was issued for action "${signed.action}", not "${action}"`);
  return { walletAddress: signed.walletAddress, action, tokenAddress: signed.tokenAddress, chainId: signed.chainId };
}

/** Consumes the nonce if `signature` proves `input` for this account; a 400 naming the field otherwise. */
export async function consumeProof(accountId: string, input: SigningDataInput, proof: { nonce: string; signature: string }): Promise<void> {
  const { challenge, signed } = await openChallenge(proof.nonce);
  if (signed.accountId !== accountId) throw badNonce(UNKNOWN);
  const matches =
    signed.action === input.action &&
    signed.chainId === input.chainId &&
    sameAddress(signed.walletAddress, input.walletAddress) &&
    sameAddress(signed.tokenAddress, input.tokenAddress);
  if (!matches) throw badNonce("was issued for another wallet, token, chain or action");
  if (!/^0x[0-9a-fA-F]{130}$/.test(proof.signature)) throw invalidField("signature", "must be a 65-byte hex signature");
  const data = typedData(accountId, signed, challenge.nonce, challenge.expiresAt.getTime());
  const valid = await verifyTypedData({ address: asEvmAddress(input.walletAddress), ...data, signature: asHex(proof.signature) }).catch(
    () => false,
  );
  if (!valid) throw invalidField("signature", "is not the wallet's signature of the signing data");
  const { count } = await db().walletChallenge.updateMany({
    where: { id: challenge.id, usedAt: null },
    data: { usedAt: new Date(nowMs()) },
  });
  if (count !== 1) throw badNonce(UNKNOWN);
}
