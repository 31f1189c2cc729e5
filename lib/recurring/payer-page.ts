import { encodeFunctionData, erc20Abi } from "viem";
import { recurringPaymentsAbi } from "@/contracts/generated/abis.generated";
import { asEvmAddress, asHex } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import { chainReaderFor, publicClientFor } from "@/lib/chain/reader";
import { isLocalChain, networkOf, tokenOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import { formatAmount } from "@/lib/money";
import { apiStatus } from "@/lib/recurring/dunning-view";
import { scheduleKey } from "@/lib/recurring/permit";
import { permitNeedsRenewal } from "@/lib/recurring/permit-renewal";
import { permitOf, perPaymentCost, scheduleReferences } from "@/lib/recurring/stored";

/** Shape of the payer's hosted schedule page (app/subscriptions/[token]): serialisable, amounts as decimal strings. */
export interface PayerSchedulePage {
  token: string;
  merchant: string;
  status: string;
  amount: string;
  symbol: string;
  frequency: string;
  network: { chainId: number; name: string; rpcUrl: string | null; testnet: boolean };
  payer: string;
  payee: string;
  processedPayments: number;
  totalPayments: number;
  nextDueDate: string | null;
  retryDate: string | null;
  /** What the next payment lacks, read from the chain now; empty when it would go through. */
  missing: { reason: "insufficient_balance" | "insufficient_allowance"; amount: string }[];
  balance: string | null;
  allowance: string | null;
  /** What an approval for the rest of the schedule sets the allowance to, and its transaction. */
  approve: { amount: string; tx: { to: string; data: string } } | null;
  /** The signed permit's deadline, and whether it ends before the schedule is done (renew it: POST /v2/subscriptions/{token}/permit). */
  permit: { until: string; renew: boolean } | null;
  /** The payer's on-chain cancel (the contract's cancelSchedule with the signed permit). */
  cancel: { to: string; data: string } | null;
}

/**
 * The payer's view of a schedule, by its unguessable page token (linked from every
 * payment.upcoming_failure): the schedule, the next due date and amount, what is missing (the
 * balance and the allowance read from the chain now), the one-step fix (an approval of what the
 * rest of the schedule pulls) and the on-chain cancel. Null for an unknown token.
 */
export async function getPayerSchedulePage(token: string): Promise<PayerSchedulePage | null> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null;
  const s = await db().recurringSchedule.findUnique({ where: { payerToken: token }, include: { account: { select: { name: true } } } });
  if (!s) return null;
  const t = tokenOf(s);
  const rt = networkRuntime(networkOf(s));
  const cost = perPaymentCost(s);
  const remaining = BigInt(Math.max(0, s.totalPayments - s.processedPayments));
  const live = s.status === "active" || s.status === "paused";
  const reader = chainReaderFor(networkOf(s));
  let balance: bigint | null = null;
  let allowance: bigint | null = null;
  let cancelledOnChain = false;
  if (reader && live) {
    const client = publicClientFor(networkOf(s))!;
    [balance, allowance, cancelledOnChain] = await Promise.all([
      reader.balanceOf(s.token, s.payer),
      reader.allowance(s.token, s.payer, s.contract),
      s.permitSignature
        ? (client.readContract({
            address: asEvmAddress(s.contract),
            abi: recurringPaymentsAbi,
            functionName: "isCancelled",
            args: [scheduleKey(asEvmAddress(s.payer), asHex(s.scheduleId))],
          } as never) as Promise<boolean>)
        : Promise.resolve(false),
    ]);
  }
  const missing: PayerSchedulePage["missing"] = [];
  if (live && !cancelledOnChain && remaining > 0n && balance !== null && allowance !== null) {
    if (balance < cost) missing.push({ reason: "insufficient_balance", amount: formatAmount(cost - balance, t.decimals) });
    if (allowance < cost) missing.push({ reason: "insufficient_allowance", amount: formatAmount(cost - allowance, t.decimals) });
  }
  const status = cancelledOnChain ? "cancelled" : apiStatus(s);
  const needed = cost * remaining;
  const canAct = live && !cancelledOnChain && remaining > 0n;
  return {
    token,
    merchant: s.account.name,
    status,
    amount: formatAmount(cost, t.decimals),
    symbol: t.symbol,
    frequency: s.frequency,
    network: {
      chainId: rt.network.chainId,
      name: rt.network.name,
      rpcUrl: isLocalChain(rt.network.id) ? rt.rpcUrl : null,
      testnet: rt.network.testnet,
    },
    payer: s.payer,
    payee: s.payee,
    processedPayments: s.processedPayments,
    totalPayments: s.totalPayments,
    nextDueDate: canAct ? new Date(s.dueTimes[s.processedPayments]! * 1000).toISOString() : null,
    retryDate: status === "past_due" ? (s.nextDueAt?.toISOString() ?? null) : null,
    missing,
    balance: balance === null ? null : formatAmount(balance, t.decimals),
    allowance: allowance === null ? null : formatAmount(allowance, t.decimals),
    approve:
      canAct && allowance !== null && allowance < needed
        ? {
            amount: formatAmount(needed, t.decimals),
            tx: {
              to: s.token,
              data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [asEvmAddress(s.contract), needed] }),
            },
          }
        : null,
    permit: s.permitSignature ? { until: new Date(s.deadline * 1000).toISOString(), renew: canAct && permitNeedsRenewal(s) } : null,
    cancel:
      canAct && s.permitSignature
        ? {
            to: s.contract,
            data: encodeFunctionData({
              abi: recurringPaymentsAbi,
              functionName: "cancelSchedule",
              args: [permitOf(s, await scheduleReferences(s.id))],
            } as never),
          }
        : null,
  };
}
