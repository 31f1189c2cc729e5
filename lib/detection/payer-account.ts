import { decodeEventLog, getAddress, parseAbiItem } from "viem";
import type { NetworkRuntime } from "@/lib/chain/config";

/**
 * Who paid a proxy payment, from its transaction receipt (issue 29: the reference's `payerAddress`
 * and `payerEoaAddress`). The fee proxy pulls the tokens with transferFrom(msg.sender, to, amount),
 * so the ERC-20 Transfer to the payee just before the proxy's event names the account the tokens
 * came from: the payer's own wallet. For a plain wallet that is the transaction's sender; for a
 * smart account (a Safe, an ERC-4337 account, any contract wallet) it is the contract, while the
 * sender is whoever submitted the transaction — a Safe's executing owner (its EOA), or for an
 * ERC-4337 bundle an EntryPoint bundler, which is no one's signer (payerEoa unknown, null).
 *
 * A Transfer from one of Request Network's own contracts (the batch contract pays the fee proxy
 * with what it pulled from the payer; the recurring contracts likewise) names no payer: the
 * sender stays the payer, as before. Deposit-address, recurring and cross-chain payments are
 * attributed by lib/detection/record-payment.ts from what it knows of them.
 */
export interface PayerAccount {
  /** The account the tokens came from (a contract wallet). */
  address: string;
  /** The EOA that sent the transaction; null when it went through an ERC-4337 EntryPoint (a bundler sent it). */
  eoa: string | null;
}

/** ERC-4337 EntryPoint v0.6, v0.7, v0.8 (the same address on every chain): a transaction to one is a bundle. */
export const ENTRY_POINTS: readonly string[] = [
  "0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789",
  "0x0000000071727De22E5E9d8BAf0edAc6f37da032",
  "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108",
].map((a) => a.toLowerCase());

const transferEvent = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

/** An ERC-20 Transfer of a receipt, decoded. */
export interface TokenTransfer {
  token: string;
  from: string;
  to: string;
  value: bigint;
  logIndex: number;
}

/** The ERC-20 Transfers among a receipt's logs (anything else, or undecodable, is skipped). */
export function tokenTransfersOf(
  logs: readonly { address: string; topics: readonly `0x${string}`[]; data: `0x${string}`; logIndex: number | null }[],
): TokenTransfer[] {
  return logs.flatMap((l) => {
    if (l.logIndex === null || l.topics.length !== 3) return [];
    try {
      const { args } = decodeEventLog({ abi: [transferEvent], topics: l.topics as [`0x${string}`, ...`0x${string}`[]], data: l.data });
      return [
        { token: l.address.toLowerCase(), from: getAddress(args.from), to: args.to.toLowerCase(), value: args.value, logIndex: l.logIndex },
      ];
    } catch {
      return [];
    }
  });
}

/** Request Network's contracts on a network: a Transfer from one of them is not a payer's. */
function protocolContracts(rt: NetworkRuntime): Set<string> {
  const c = rt.contracts;
  return new Set(
    [c.erc20FeeProxy, c.erc20ConversionProxy, c.batchPayments, c.recurringPaymentProxy, c.recurringPayments, c.devnetBridge]
      .filter((a): a is string => !!a)
      .map((a) => a.toLowerCase()),
  );
}

/**
 * The smart account behind a proxy event at `logIndex` paying `amount` of `token` to `to`, or
 * undefined when the transaction's sender paid itself (or no matching Transfer is found).
 */
export function payerAccountOf(
  rt: NetworkRuntime,
  tx: { from: string; to: string | null; transfers: readonly TokenTransfer[] },
  payment: { token: string; to: string; amount: bigint; logIndex: number },
): PayerAccount | undefined {
  const source = tx.transfers
    .filter(
      (t) =>
        t.logIndex < payment.logIndex &&
        t.token === payment.token.toLowerCase() &&
        t.to === payment.to.toLowerCase() &&
        t.value === payment.amount,
    )
    .sort((a, b) => b.logIndex - a.logIndex)[0];
  if (!source || source.from.toLowerCase() === tx.from.toLowerCase() || protocolContracts(rt).has(source.from.toLowerCase()))
    return undefined;
  // A gasless payment (DuebillGaslessPayments, lib/gasless): the relayer sent it and the contract paid the fee proxy with
  // what it received just before by the payer's EIP-3009 authorization — that transfer's sender is the payer (an EOA, the signer).
  const gasless = rt.contracts.gaslessPayments?.toLowerCase();
  if (gasless && source.from.toLowerCase() === gasless) {
    const pulled = tx.transfers
      .filter((t) => t.logIndex < source.logIndex && t.token === payment.token.toLowerCase() && t.to === gasless)
      .sort((a, b) => b.logIndex - a.logIndex)[0];
    if (pulled) return { address: pulled.from, eoa: pulled.from };
  }
  const bundled = tx.to !== null && ENTRY_POINTS.includes(tx.to.toLowerCase());
  return { address: source.from, eoa: bundled ? null : tx.from };
}
