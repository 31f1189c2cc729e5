import { type Hex, keccak256, type TransactionReceipt } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { networkRuntime } from "@/lib/chain/config";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor, walletClientFor } from "@/lib/chain/reader";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { prefixedId } from "@/lib/ids";
import { log } from "@/lib/log";

/**
 * The signature relayer: submits transactions that carry a payer's signed authorization (EIP-3009
 * gasless pay, escrow authorize/capture, x402 settle). Non-custodial: it pays gas and never holds
 * tokens; what it sends only moves what the payer's signature allows, where the signature says.
 *
 * Every submission has an idempotency key (an authorization's chain, token, authorizer and nonce; a
 * capture's id…) and one RelayedTransaction row: the first caller signs and broadcasts, concurrent
 * and later callers with the same key wait for that row and get the same answer. The transaction
 * is simulated first (never broadcast when the call would revert), signed locally and its hash and
 * bytes stored before broadcast, so a crash at any point is recovered by recoverRelayed() without
 * a second transaction. Sends are serialized per (network, relayer) with a Postgres advisory lock,
 * so several instances never race for one nonce.
 */
export function signatureRelayer(): PrivateKeyAccount | null {
  const key = env().SIGNATURE_RELAYER_PRIVATE_KEY;
  return key ? privateKeyToAccount(key as Hex) : null;
}

/** Why the relayer cannot submit on `network`; null when it can. */
export function relayerUnavailableReason(network: NetworkId): string | null {
  const rt = networkRuntime(network);
  if (rt.network.kind !== "evm") return `Signature payments are not available on ${rt.network.name}`;
  if (!rt.rpcUrl) return `No RPC is configured for ${rt.network.name}`;
  if (!signatureRelayer()) return "Signature payments are not enabled on this server (SIGNATURE_RELAYER_PRIVATE_KEY)";
  return null;
}

export interface RelayInput {
  network: NetworkId;
  to: Hex;
  data: Hex;
  /** One transaction per key, ever: e.g. `eip3009:<chainId>:<token>:<from>:<nonce>`. */
  idempotencyKey: string;
  purpose: string;
  accountId?: string | null;
  subjectId?: string | null;
  /** Gas limit; default: the node's estimate × 1.3 (a wallet's margin). */
  gas?: bigint;
}

export interface RelayResult {
  id: string;
  status: "confirmed" | "reverted" | "failed";
  txHash: Hex | null;
  blockNumber: bigint | null;
  gasUsed: bigint | null;
  costWei: bigint | null;
  /** Why it failed (simulation revert, send error); null otherwise. */
  error: string | null;
  /** Whether this call found an earlier (or concurrent) submission of the same key instead of sending. */
  replayed: boolean;
}

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof db>["relayedTransaction"]["findUnique"]>>>;

const FINAL = new Set(["confirmed", "reverted", "failed"]);

function resultOf(row: Row, replayed: boolean): RelayResult {
  return {
    id: row.id,
    status: row.status as RelayResult["status"],
    txHash: (row.txHash as Hex | null) ?? null,
    blockNumber: row.blockNumber ?? null,
    gasUsed: row.gasUsed ?? null,
    costWei: row.costWei == null ? null : BigInt(row.costWei.toFixed(0)),
    error: row.error,
    replayed,
  };
}

function reasonOf(err: unknown): string {
  const e = err as { shortMessage?: string; message?: string };
  return (e.shortMessage ?? e.message ?? String(err)).split("\n")[0]!.slice(0, 500);
}

/**
 * Submits `to.data` once per idempotency key and waits for its receipt. Call it outside a database
 * transaction (it commits its own row before broadcasting). A simulation revert is `failed` with the
 * reason, and nothing is broadcast.
 */
export async function relay(input: RelayInput, opts: { waitMs?: number } = {}): Promise<RelayResult> {
  const reason = relayerUnavailableReason(input.network);
  if (reason) throw new AppError("validation_failed", reason);
  const account = signatureRelayer()!;
  const id = prefixedId("rtx_");
  const inserted = await db().$executeRaw`
    INSERT INTO "RelayedTransaction" ("id", "idempotencyKey", "network", "relayer", "purpose", "accountId", "subjectId", "to", "data", "status", "createdAt", "updatedAt")
    VALUES (${id}, ${input.idempotencyKey}, ${input.network}, ${account.address}, ${input.purpose}, ${input.accountId ?? null}, ${input.subjectId ?? null}, ${input.to}, ${input.data}, 'pending', now(), now())
    ON CONFLICT ("idempotencyKey") DO NOTHING`;
  if (inserted === 0) return waitFor(input.idempotencyKey, opts.waitMs ?? 90_000);
  return submit(id, input, account);
}

async function submit(id: string, input: RelayInput, account: PrivateKeyAccount): Promise<RelayResult> {
  const client = publicClientFor(input.network)!;
  const wallet = walletClientFor(input.network, account)!;
  const fail = async (error: string) => {
    const row = await db().relayedTransaction.update({ where: { id }, data: { status: "failed", error } });
    return resultOf(row, false);
  };
  let gas: bigint;
  try {
    // Simulate first: a transaction a read shows would revert is never broadcast (no gas is spent on it).
    await client.call({ account: account.address, to: input.to, data: input.data });
    gas = input.gas ?? ((await client.estimateGas({ account: account.address, to: input.to, data: input.data })) * 13n) / 10n;
  } catch (err) {
    return fail(`simulation reverted: ${reasonOf(err)}`);
  }
  let hash: Hex;
  try {
    // One sender per (network, relayer) at a time across instances: the nonce is read and used under the lock.
    hash = await db().$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`relayer:${input.network}:${account.address}`}))`;
        const request = await wallet.prepareTransactionRequest({
          account,
          chain: null,
          to: input.to,
          data: input.data,
          gas,
          nonce: await client.getTransactionCount({ address: account.address, blockTag: "pending" }),
        });
        const raw = await wallet.signTransaction({ ...request, account, chain: null } as never);
        const txHash = keccak256(raw);
        await tx.relayedTransaction.update({ where: { id }, data: { status: "signed", txHash, rawTx: raw } });
        await client.sendRawTransaction({ serializedTransaction: raw });
        return txHash;
      },
      { timeout: 30_000, maxWait: 30_000 },
    );
  } catch (err) {
    // The row's signed state rolled back with the transaction: nothing was broadcast, or the node refused it.
    return fail(`send failed: ${reasonOf(err)}`);
  }
  await db().relayedTransaction.update({ where: { id }, data: { status: "submitted" } });
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100, timeout: 120_000 });
  return resultOf(await finish(id, receipt), false);
}

async function finish(id: string, receipt: TransactionReceipt): Promise<Row> {
  const price = receipt.effectiveGasPrice ?? 0n;
  return db().relayedTransaction.update({
    where: { id },
    data: {
      status: receipt.status === "success" ? "confirmed" : "reverted",
      rawTx: null,
      blockNumber: receipt.blockNumber,
      gasUsed: receipt.gasUsed,
      effectiveGasPrice: price.toString(),
      costWei: (receipt.gasUsed * price).toString(),
      error: receipt.status === "success" ? null : "the transaction reverted",
    },
  });
}

async function waitFor(idempotencyKey: string, waitMs: number): Promise<RelayResult> {
  const until = Date.now() + waitMs;
  for (;;) {
    const row = await db().relayedTransaction.findUnique({ where: { idempotencyKey } });
    if (row && FINAL.has(row.status)) return resultOf(row, true);
    if (Date.now() > until)
      throw new AppError("upstream_unavailable", "The relayed transaction for this authorization is still pending; retry shortly");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The row of an idempotency key, if any (for status reads). */
export async function relayedByKey(idempotencyKey: string): Promise<RelayResult | null> {
  const row = await db().relayedTransaction.findUnique({ where: { idempotencyKey } });
  return row ? resultOf(row, true) : null;
}

/**
 * Finishes what a crash left: rows signed or submitted for longer than `staleMs` get their receipt
 * (rebroadcasting the very same bytes when the node does not know the hash), rows still pending
 * (never signed: nothing was broadcast) are failed so their callers can retry with a fresh key.
 */
export async function recoverRelayed(staleMs = 60_000): Promise<number> {
  const stale = await db().relayedTransaction.findMany({
    where: { status: { in: ["pending", "signed", "submitted"] }, updatedAt: { lt: new Date(Date.now() - staleMs) } },
    take: 100,
  });
  for (const row of stale) {
    const client = publicClientFor(row.network as NetworkId);
    if (!client) continue;
    try {
      if (row.status === "pending" || !row.txHash) {
        await db().relayedTransaction.update({ where: { id: row.id }, data: { status: "failed", error: "interrupted before broadcast" } });
        continue;
      }
      const receipt = await client.getTransactionReceipt({ hash: row.txHash as Hex }).catch(() => null);
      if (receipt) {
        await finish(row.id, receipt);
        continue;
      }
      if (row.rawTx) await client.sendRawTransaction({ serializedTransaction: row.rawTx as Hex }).catch(() => undefined);
      await db().relayedTransaction.update({ where: { id: row.id }, data: { status: "submitted" } });
    } catch (err) {
      log.warn("relayed transaction recovery failed", { id: row.id, error: reasonOf(err) });
    }
  }
  return stale.length;
}
