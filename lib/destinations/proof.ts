import { randomBytes } from "node:crypto";
import { verifyTypedData } from "viem";
import { asEvmAddress, asHex, isEvmAddress, sameAddress } from "@/lib/chain/address";
import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { AppError, invalidField } from "@/lib/errors";
import { prefixedId } from "@/lib/ids";

/**
 * Proof that the caller controls a wallet before it becomes a payee destination (or stops
 * being one). A wallet session proves its own address; otherwise the wallet signs EIP-712
 * typed data from GET /v2/payee-destination/signing-data (the reference's flow): one nonce,
 * bound to the account, the action, the wallet, token and chain, valid 5 minutes, single use.
 * Tron wallets prove control by signing in with the wallet (TRON message signing).
 */
const TTL_MS = 5 * 60 * 1000;

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
  const nonce = randomBytes(16).toString("hex");
  const expiresAt = nowMs() + TTL_MS;
  const data = typedData(accountId, input, nonce, expiresAt);
  await db().walletChallenge.create({
    data: {
      id: prefixedId("pdc_"),
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

const refused = (why: string) => new AppError("forbidden", `Wallet ownership not proven: ${why}`);

/** Consumes the nonce if `signature` proves `input` for this account; throws 403 otherwise. */
export async function consumeProof(accountId: string, input: SigningDataInput, proof: { nonce: string; signature: string }): Promise<void> {
  const challenge = await db().walletChallenge.findFirst({ where: { nonce: proof.nonce, address: input.walletAddress.toLowerCase() } });
  if (!challenge || challenge.usedAt || challenge.expiresAt.getTime() <= nowMs()) throw refused("unknown, used or expired nonce");
  const signed = JSON.parse(challenge.message) as SigningDataInput & { accountId: string };
  const matches =
    signed.accountId === accountId &&
    signed.action === input.action &&
    signed.chainId === input.chainId &&
    sameAddress(signed.walletAddress, input.walletAddress) &&
    sameAddress(signed.tokenAddress, input.tokenAddress);
  if (!matches) throw refused("the nonce was issued for another destination or action");
  if (!/^0x[0-9a-fA-F]{130}$/.test(proof.signature)) throw invalidField("signature", "must be a 65-byte hex signature");
  const data = typedData(accountId, signed, challenge.nonce, challenge.expiresAt.getTime());
  const valid = await verifyTypedData({ address: asEvmAddress(input.walletAddress), ...data, signature: asHex(proof.signature) }).catch(
    () => false,
  );
  if (!valid) throw refused("the signature is not the wallet's");
  const { count } = await db().walletChallenge.updateMany({
    where: { id: challenge.id, usedAt: null },
    data: { usedAt: new Date(nowMs()) },
  });
  if (count !== 1) throw refused("nonce already used");
}
