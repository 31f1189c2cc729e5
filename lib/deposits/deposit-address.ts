import { type Address, decodeEventLog, getAddress, zeroAddress } from "viem";
import { depositFactoryAbi } from "@/contracts/generated/abis.generated";
import { singleRequestProxyFactoryAbi } from "@/lib/chain/abis";
import { asEvmAddress, asHex, sameAddress } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { nowMs } from "@/lib/clock";
import { db } from "@/lib/db";
import { depositUnavailableReason, depositWalletFor } from "@/lib/deposits/relayer";
import { AppError } from "@/lib/errors";
import type { DepositAddress, PaymentRequest } from "@/lib/generated/prisma/client";
import { log } from "@/lib/log";

/** One deployment at a time per request; a crashed one is taken over after this. */
const DEPLOY_LEASE_MS = 90_000;
const units = (d: { toFixed(): string }) => BigInt(d.toFixed());

/** What the payer sends to the deposit address: the rest of the request plus the fee the proxy keeps. */
export function depositAmount(request: Pick<PaymentRequest, "expectedAmount" | "amountPaid" | "feeAmount">): bigint {
  const remaining = units(request.expectedAmount) - units(request.amountPaid);
  return (remaining > 0n ? remaining : 0n) + units(request.feeAmount);
}

/** EIP-681 payment URI for a plain token transfer: what a QR code carries for any wallet or exchange app. */
export function eip681Uri(token: string, chainId: number, to: string, amount: bigint): string {
  return `ethereum:${getAddress(token)}@${chainId}/transfer?address=${getAddress(to)}&uint256=${amount.toString()}`;
}

/**
 * The request's deposit address, deployed on first use: through the network's DuebillDepositFactory
 * where it is configured (Duebill's DuebillDepositAddress: payee, token, payment reference, fee, the
 * amount still owed, the deposit relayer as operator and `closesAt` — the link's expiry — fixed at
 * creation; it can send money back), else Request Network's SingleRequestProxyFactory
 * (ERC20SingleRequestProxy: payee, token, payment reference, fee address and amount fixed at creation;
 * it only forwards). Idempotent and safe when called concurrently or after a crash: one row per
 * request, one deployment at a time under a lease, and a sent deployment is looked up by its hash
 * before anything is sent again.
 */
export async function ensureDepositAddress(request: PaymentRequest, closesAt: Date): Promise<DepositAddress> {
  const network = request.network as NetworkId;
  const unavailable = depositUnavailableReason(network);
  if (unavailable) throw new AppError("conflict", unavailable);
  const { depositFactory, singleRequestProxyFactory } = networkRuntime(network).contracts;
  await db().depositAddress.createMany({
    data: [
      {
        requestId: request.id,
        network,
        tokenAddress: request.tokenAddress,
        feeAmount: request.feeAddress ? request.feeAmount : 0,
        factoryAddress: (depositFactory ?? singleRequestProxyFactory)!,
        contract: depositFactory ? "duebill" : "request_network",
        closesAt: depositFactory ? closesAt : null,
      },
    ],
    skipDuplicates: true,
  });
  const deadline = nowMs() + 60_000;
  for (;;) {
    const row = await db().depositAddress.findUniqueOrThrow({ where: { requestId: request.id } });
    if (row.address) return row;
    const leaseUntil = new Date(nowMs() + DEPLOY_LEASE_MS);
    const { count } = await db().depositAddress.updateMany({
      where: { requestId: request.id, address: null, OR: [{ leaseUntil: null }, { leaseUntil: { lt: new Date(nowMs()) } }] },
      data: { leaseUntil },
    });
    if (count === 1) return deploy(row, request);
    // Another request is deploying it: wait for its answer.
    if (nowMs() > deadline) throw new AppError("upstream_unavailable", "The deposit address is still being created; try again shortly");
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function deploy(row: DepositAddress, request: PaymentRequest): Promise<DepositAddress> {
  const network = request.network as NetworkId;
  const client = publicClientFor(network);
  const signer = depositWalletFor(network);
  if (!client || !signer) throw new AppError("upstream_unavailable", "No RPC or deposit relayer for this network");
  try {
    let hash = row.deployTxHash as `0x${string}` | null;
    // A deployment sent before a crash: use it when it was mined, send again only when it is gone.
    if (hash) {
      const known = await client.getTransaction({ hash }).catch(() => null);
      if (!known) hash = null;
    }
    if (!hash) {
      const payee = asEvmAddress(request.payee);
      const token = asEvmAddress(request.tokenAddress);
      const feeAddress = request.feeAddress ? asEvmAddress(request.feeAddress) : zeroAddress;
      const owed = units(request.expectedAmount) - units(request.amountPaid);
      if (row.contract === "duebill") {
        const { request: call } = await client.simulateContract({
          account: signer.account,
          address: asEvmAddress(row.factoryAddress),
          abi: depositFactoryAbi,
          functionName: "create",
          // What is still owed when the address is made (the rest of a partly paid request), to be paid before any return.
          args: [
            payee,
            token,
            asHex(request.paymentReference),
            feeAddress,
            units(row.feeAmount),
            owed > 0n ? owed : 0n,
            BigInt(Math.floor(row.closesAt!.getTime() / 1000)),
          ],
        });
        hash = await signer.wallet.writeContract({ ...call, account: signer.account, chain: null });
      } else {
        const { request: call } = await client.simulateContract({
          account: signer.account,
          address: asEvmAddress(row.factoryAddress),
          abi: singleRequestProxyFactoryAbi,
          functionName: "createERC20SingleRequestProxy",
          args: [payee, token, asHex(request.paymentReference), feeAddress, units(row.feeAmount)],
        });
        hash = await signer.wallet.writeContract({ ...call, account: signer.account, chain: null });
      }
      await db().depositAddress.update({ where: { requestId: row.requestId }, data: { deployTxHash: hash } });
    }
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: 60_000, pollingInterval: 250 });
    if (receipt.status !== "success") {
      // A reverted deployment is final: forget it so the next call sends a new one.
      await db().depositAddress.update({ where: { requestId: row.requestId }, data: { deployTxHash: null } });
      throw new Error(`deployment reverted (${hash})`);
    }
    let proxy: Address | null = null;
    for (const l of receipt.logs) {
      // Only the factory's own event: another contract could emit one of the same shape.
      if (!sameAddress(l.address, row.factoryAddress)) continue;
      try {
        if (row.contract === "duebill") {
          const ev = decodeEventLog({ abi: depositFactoryAbi, data: l.data, topics: l.topics });
          if (ev.eventName === "DepositAddressCreated") proxy = getAddress(ev.args.depositAddress);
        } else {
          const ev = decodeEventLog({ abi: singleRequestProxyFactoryAbi, data: l.data, topics: l.topics });
          if (ev.eventName === "ERC20SingleRequestProxyCreated") proxy = getAddress(ev.args.proxyAddress);
        }
      } catch {
        // another event of the factory
      }
    }
    if (!proxy) throw new Error(`no creation event of the factory in ${hash}`);
    log.info("deposit address created", { requestId: row.requestId, network, address: proxy });
    return await db().depositAddress.update({
      where: { requestId: row.requestId },
      data: { address: proxy, deployBlock: receipt.blockNumber, leaseUntil: null },
    });
  } catch (err) {
    await db().depositAddress.update({ where: { requestId: row.requestId }, data: { leaseUntil: null } });
    log.warn("deposit address deployment failed", { requestId: row.requestId, network, err });
    if (err instanceof AppError) throw err;
    throw new AppError("upstream_unavailable", "Could not create the deposit address on chain; try again shortly");
  }
}
