import { getAddress, verifyMessage } from "viem";
import { createSiweMessage, parseSiweMessage } from "viem/siwe";
import { hashSecret, safeEqual } from "@/lib/auth/secrets";
import { createSession } from "@/lib/auth/sessions";
import { recoverTronSigner } from "@/lib/auth/sign-in/tron-message";
import { asEvmAddress, asHex, isEvmAddress, isTronAddress, sameAddress } from "@/lib/chain/address";
import { TRON_CHAIN_ID } from "@/lib/chain/networks";
import { now, nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError, invalidField } from "@/lib/errors";
import { prefixedId, randomToken, ulid } from "@/lib/ids";

/**
 * Sign-in with a wallet (EIP-4361). EVM messages come from viem's SIWE helpers; Tron
 * messages use the same layout with "Tron account" and chain ID 728126428 (viem and the
 * siwe package reject Tron addresses). The stored message is the contract: the signed text
 * must equal it byte for byte, so a changed domain, URI, chain ID, nonce or address fails.
 */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** The statement of every sign-in message (a SIWE page sign-in must carry it too). */
export const STATEMENT = "Sign in to Duebill.";

type Kind = "evm" | "tron";

function kindOf(address: string): Kind {
  if (isEvmAddress(address)) return "evm";
  if (isTronAddress(address)) return "tron";
  throw invalidField("address", "must be an EVM (0x...) or Tron (T...) address");
}

function renderTronMessage(p: {
  domain: string;
  address: string;
  uri: string;
  nonce: string;
  issuedAt: Date;
  expirationTime: Date;
}): string {
  return [
    `${p.domain} wants you to sign in with your Tron account:`,
    p.address,
    "",
    STATEMENT,
    "",
    `URI: ${p.uri}`,
    "Version: 1",
    `Chain ID: ${TRON_CHAIN_ID}`,
    `Nonce: ${p.nonce}`,
    `Issued At: ${p.issuedAt.toISOString()}`,
    `Expiration Time: ${p.expirationTime.toISOString()}`,
  ].join("\n");
}

export async function createChallenge(address: string, chainId?: number) {
  const kind = kindOf(address);
  const app = new URL(env().APP_URL);
  const issuedAt = now();
  const expirationTime = new Date(issuedAt.getTime() + CHALLENGE_TTL_MS);
  const nonce = randomToken(12)
    .replace(/[^A-Za-z0-9]/g, "")
    .padEnd(16, "0");
  const resolvedChainId = kind === "tron" ? TRON_CHAIN_ID : (chainId ?? 1);
  const normalized = kind === "evm" ? getAddress(address) : address;
  const message =
    kind === "evm"
      ? createSiweMessage({
          domain: app.host,
          address: asEvmAddress(normalized),
          statement: STATEMENT,
          uri: app.origin,
          version: "1",
          chainId: resolvedChainId,
          nonce,
          issuedAt,
          expirationTime,
        })
      : renderTronMessage({ domain: app.host, address: normalized, uri: app.origin, nonce, issuedAt, expirationTime });
  const challenge = await db().walletChallenge.create({
    data: {
      id: ulid(),
      address: normalized,
      chainKind: kind,
      chainId: resolvedChainId,
      nonce,
      message,
      expiresAt: expirationTime,
      createdAt: issuedAt,
    },
  });
  return { challengeId: challenge.id, nonce, message, expiresAt: expirationTime.toISOString() };
}

const rejected = (why: string) => new AppError("unauthorized", `Sign-in rejected: ${why}`);

/** Field checks on top of byte equality, so each rejection says what was wrong. */
function checkEvmFields(message: string, expected: { address: string; chainId: number; nonce: string }): void {
  const app = new URL(env().APP_URL);
  const m = parseSiweMessage(message);
  if (m.domain !== app.host) throw rejected("domain mismatch");
  if (m.uri !== app.origin) throw rejected("URI mismatch");
  if (m.chainId !== expected.chainId) throw rejected("chain ID mismatch");
  if (m.nonce !== expected.nonce) throw rejected("nonce mismatch");
  if (!m.address || !sameAddress(m.address, expected.address)) throw rejected("address mismatch");
}

export async function verifyChallenge(input: { challengeId: string; nonce: string; message: string; signature: string }) {
  const challenge = await db().walletChallenge.findUnique({ where: { id: input.challengeId } });
  if (!challenge) throw rejected("unknown challenge");
  if (challenge.usedAt) throw rejected("challenge already used");
  if (challenge.expiresAt.getTime() <= nowMs()) throw rejected("challenge expired");
  if (!safeEqual(input.nonce, challenge.nonce)) throw rejected("nonce mismatch");
  if (challenge.chainKind === "evm") checkEvmFields(input.message, challenge);
  if (input.message !== challenge.message) throw rejected("message differs from the challenge");
  if (!/^0x[0-9a-fA-F]{130}$/.test(input.signature)) throw invalidField("signature", "must be a 65-byte hex signature");
  const signature = asHex(input.signature);
  const valid =
    challenge.chainKind === "evm"
      ? await verifyMessage({ address: asEvmAddress(challenge.address), message: input.message, signature }).catch(() => false)
      : (await recoverTronSigner(input.message, signature).catch(() => "")) === challenge.address;
  if (!valid) throw rejected("signature does not match the address");
  // Single use, even under a race: only one request flips usedAt.
  const { count } = await db().walletChallenge.updateMany({ where: { id: challenge.id, usedAt: null }, data: { usedAt: now() } });
  if (count !== 1) throw rejected("challenge already used");

  const walletAddress = challenge.chainKind === "evm" ? challenge.address.toLowerCase() : challenge.address;
  const user = await findOrCreateWalletUser(walletAddress);
  const session = await createSession(user, "wallet");
  return { ...session, user: { id: user.id, accountId: user.accountId, walletAddress: challenge.address } };
}

/**
 * Sign-in with Ethereum through next-auth (RainbowKit's SIWE adapter): the browser writes the
 * message itself, with next-auth's CSRF token as its nonce (the adapter's getNonce), so there is no
 * prior POST /challenge. The message is checked against the same rules a /v1 challenge is made
 * with (our domain, URI and statement, a nonce bound to this browser, issued within the last
 * CHALLENGE_TTL_MS), stored as that challenge — keyed by the message's hash, so it is single use —
 * and then verified by verifyChallenge itself: same signature check, same single use, same session.
 */
export async function verifySiweSignIn(input: { message: string; signature: string; csrfToken: string }) {
  const app = new URL(env().APP_URL);
  let m: ReturnType<typeof parseSiweMessage>;
  try {
    m = parseSiweMessage(input.message);
  } catch {
    throw rejected("not a sign-in message");
  }
  if (!m.address || !m.chainId || !m.nonce || !m.issuedAt) throw rejected("not a sign-in message");
  if (m.domain !== app.host) throw rejected("domain mismatch");
  if (m.uri !== app.origin) throw rejected("URI mismatch");
  if (m.statement !== STATEMENT) throw rejected("statement mismatch");
  if (!input.csrfToken || !safeEqual(m.nonce, input.csrfToken)) throw rejected("nonce mismatch");
  const t = nowMs();
  const issued = m.issuedAt.getTime();
  // A minute of clock skew either way; never older than a /v1 challenge may be.
  if (issued > t + 60_000 || issued <= t - CHALLENGE_TTL_MS) throw rejected("challenge expired");
  const expiresAt = new Date(Math.min(issued + CHALLENGE_TTL_MS, m.expirationTime?.getTime() ?? Number.POSITIVE_INFINITY));
  const challengeId = `siwe_${hashSecret(input.message)}`;
  try {
    await db().walletChallenge.create({
      data: {
        id: challengeId,
        address: getAddress(m.address),
        chainKind: "evm",
        chainId: m.chainId,
        nonce: m.nonce,
        message: input.message,
        expiresAt,
        createdAt: new Date(t),
      },
    });
  } catch (err) {
    if ((err as { code?: string }).code === "P2002") throw rejected("challenge already used");
    throw err;
  }
  return verifyChallenge({ challengeId, nonce: m.nonce, message: input.message, signature: input.signature });
}

/** Two first sign-ins of one wallet may race: the loser of the unique index reads the winner's user. */
async function findOrCreateWalletUser(walletAddress: string) {
  const existing = await db().user.findUnique({ where: { walletAddress } });
  if (existing) return existing;
  try {
    return await db().$transaction(async (tx) => {
      const account = await tx.account.create({ data: { id: prefixedId("acc_"), name: walletAddress } });
      return tx.user.create({ data: { id: prefixedId("usr_"), accountId: account.id, walletAddress } });
    });
  } catch (err) {
    if ((err as { code?: string }).code !== "P2002") throw err;
    return db().user.findUniqueOrThrow({ where: { walletAddress } });
  }
}
