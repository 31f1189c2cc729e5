import { randomBytes } from "node:crypto";
import { verifyTypedData } from "viem";
import { recoverTronSigner } from "@/lib/auth/sign-in/tron-message";
import { asEvmAddress, asHex, isEvmAddress, isTronAddress, sameAddress } from "@/lib/chain/address";
import { TRON_CHAIN_ID } from "@/lib/chain/networks";
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
 * A Tron wallet cannot sign EIP-712: it signs (TRON message v2, TronLink's signMessageV2) a
 * canonical text of the same data — action, account, wallet, token, chain, nonce, expiry — from
 * createTronSigningData; the same nonce rules apply, and the signer is recovered as sign-in does.
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
    throw invalidField(
      "walletAddress",
      "EVM address expected: a Tron wallet proves control in the dashboard (Settings → Connect TronLink) or by signing in with it",
    );
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

/** The stored form of a signing session: what was issued, and for Tron the exact text to sign. */
type Issued = SigningDataInput & { accountId: string; text?: string };

/**
 * The text a Tron wallet signs: one field a line, so a wallet shows the merchant what it
 * authorises. Stored with the challenge and checked byte for byte, as sign-in messages are.
 */
export function tronSigningText(p: {
  accountId: string;
  accountName: string;
  input: SigningDataInput;
  currencyId: string;
  nonce: string;
  expiresAt: number;
}): string {
  const verb =
    p.input.action === "add"
      ? `Register this wallet as the payment destination of ${p.accountName} for ${p.currencyId}.`
      : `Deactivate this wallet as the payment destination of ${p.accountName} for ${p.currencyId}.`;
  return [
    "Duebill payee destination",
    "",
    verb,
    "",
    `Action: ${p.input.action}`,
    `Account: ${p.accountId}`,
    `Wallet: ${p.input.walletAddress}`,
    `Token: ${p.input.tokenAddress}`,
    `Chain ID: ${p.input.chainId}`,
    `Nonce: ${p.nonce}`,
    `Expires At: ${new Date(p.expiresAt).toISOString()}`,
  ].join("\n");
}

/**
 * The Tron form of the signing data: the text the wallet signs with TRON message v2, one nonce
 * bound to the account, action, wallet, token and chain, valid 5 minutes, single use.
 */
export async function createTronSigningData(accountId: string, input: SigningDataInput) {
  if (!isTronAddress(input.walletAddress)) throw invalidField("walletAddress", "must be a Tron base58 address (T…)");
  if (input.chainId !== TRON_CHAIN_ID) throw invalidField("chainId", `is not the Tron chain (${TRON_CHAIN_ID})`);
  const currency = receivingCurrencyAt(input.chainId, input.tokenAddress, "tokenAddress");
  const account = await db().account.findUnique({ where: { id: accountId }, select: { name: true } });
  const nonce = randomBytes(16).toString("hex");
  const expiresAt = nowMs() + TTL_MS;
  // The name is shown for the merchant's eyes only; the ID is what binds. Line breaks would forge lines.
  const accountName = (account?.name ?? accountId).replace(/[\r\n\u2028\u2029]+/g, " ").slice(0, 80);
  const text = tronSigningText({ accountId, accountName, input, currencyId: currency.id, nonce, expiresAt });
  const issued: Issued = { accountId, ...input, text };
  await db().walletChallenge.create({
    data: {
      id: prefixedId(CHALLENGE_PREFIX),
      address: input.walletAddress,
      chainKind: "tron",
      chainId: input.chainId,
      nonce,
      message: JSON.stringify(issued),
      expiresAt: new Date(expiresAt),
    },
  });
  return { message: text, nonce, expiresAt: new Date(expiresAt).toISOString() };
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
  return { challenge, signed: JSON.parse(challenge.message) as Issued };
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
  if (!(await signedBy(accountId, signed, challenge, asHex(proof.signature))))
    throw invalidField("signature", "is not the wallet's signature of the signing data");
  const { count } = await db().walletChallenge.updateMany({
    where: { id: challenge.id, usedAt: null },
    data: { usedAt: new Date(nowMs()) },
  });
  if (count !== 1) throw badNonce(UNKNOWN);
}

/**
 * EVM: the EIP-712 signature of the typed data. Tron: the TRON message v2 signature of the stored
 * text, its signer recovered exactly as Tron sign-in recovers it (lib/auth/sign-in/tron-message).
 */
async function signedBy(
  accountId: string,
  signed: Issued,
  challenge: { chainKind: string; nonce: string; expiresAt: Date },
  signature: `0x${string}`,
): Promise<boolean> {
  if (challenge.chainKind === "tron") {
    if (!signed.text) return false;
    return (await recoverTronSigner(signed.text, signature).catch(() => "")) === signed.walletAddress;
  }
  const data = typedData(accountId, signed, challenge.nonce, challenge.expiresAt.getTime());
  return verifyTypedData({ address: asEvmAddress(signed.walletAddress), ...data, signature }).catch(() => false);
}
