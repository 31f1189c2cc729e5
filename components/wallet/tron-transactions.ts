/**
 * Building, broadcasting and confirming Tron transactions with the tronWeb that TronLink
 * injects. The adapter only signs (`adapter.signTransaction` → `tronWeb.trx.sign`): it has no
 * builder. Plan transactions carry EVM-style calldata; TronLink's tronWeb builds a contract
 * call from a function signature plus raw parameters (`rawParameter`), which every TronLink
 * version supports, so the selectors the plan uses are mapped back to their signatures;
 * anything else falls back to `options.input` (whole calldata, tronweb ≥ 5).
 */

export interface TronTransaction {
  txID: string;
  raw_data: unknown;
  raw_data_hex: string;
  signature?: string[];
}

interface TronTxInfo {
  id?: string;
  blockNumber?: number;
  result?: string;
  receipt?: { result?: string };
}

/** The subset of TronLink's injected tronWeb used here. */
export interface InjectedTronWeb {
  defaultAddress?: { base58?: string | false };
  transactionBuilder: {
    triggerSmartContract(
      contract: string,
      functionSelector: string,
      options: { feeLimit: number; callValue: number; rawParameter?: string; input?: string },
      parameters: unknown[],
      issuer: string,
    ): Promise<{ result?: { result?: boolean; message?: string }; transaction?: TronTransaction }>;
  };
  trx: {
    sendRawTransaction(signed: TronTransaction): Promise<{ result?: boolean; txid?: string; code?: string; message?: string }>;
    getTransactionInfo(txid: string): Promise<TronTxInfo>;
  };
}

type TronWindow = { tron?: { tronWeb?: InjectedTronWeb }; tronLink?: { tronWeb?: InjectedTronWeb }; tronWeb?: InjectedTronWeb };

/** The tronWeb of whichever TronLink provider the page has (TIP-1193 `tron`, legacy `tronLink`, or bare `tronWeb`). */
export function injectedTronWeb(): InjectedTronWeb | null {
  const w = window as unknown as TronWindow;
  return w.tron?.tronWeb ?? w.tronLink?.tronWeb ?? w.tronWeb ?? null;
}

const KNOWN_FUNCTIONS: Record<string, string> = {
  "095ea7b3": "approve(address,uint256)",
  c219a14d: "transferFromWithReferenceAndFee(address,address,uint256,bytes,uint256,address)",
};

/** Upper bound of TRX burnt for energy (150 TRX, in sun); the actual fee is usually far lower. */
const FEE_LIMIT_SUN = 150_000_000;

export async function buildTronTransaction(
  tronWeb: InjectedTronWeb,
  to: string,
  data: `0x${string}`,
  owner: string,
): Promise<TronTransaction> {
  const hex = data.slice(2);
  const signature = KNOWN_FUNCTIONS[hex.slice(0, 8).toLowerCase()];
  const options = signature
    ? { feeLimit: FEE_LIMIT_SUN, callValue: 0, rawParameter: hex.slice(8) }
    : { feeLimit: FEE_LIMIT_SUN, callValue: 0, input: hex };
  const built = await tronWeb.transactionBuilder.triggerSmartContract(to, signature ?? "", options, [], owner);
  if (!built.result?.result || !built.transaction) {
    throw new Error(`TronLink could not build the transaction${built.result?.message ? `: ${hexToText(built.result.message)}` : "."}`);
  }
  return built.transaction;
}

export async function broadcastTronTransaction(tronWeb: InjectedTronWeb, signed: TronTransaction): Promise<string> {
  const res = await tronWeb.trx.sendRawTransaction(signed);
  if (!res.result)
    throw new Error(
      `The Tron network refused the transaction${res.message ? `: ${hexToText(res.message)}` : ` (${res.code ?? "unknown error"})`}.`,
    );
  return res.txid ?? signed.txID;
}

/** Polls the transaction's info until it is in a block; rejects when it failed or after `timeoutMs`. */
export async function waitForTronTransaction(
  tronWeb: InjectedTronWeb,
  txid: string,
  intervalMs = 3_000,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const info = await tronWeb.trx.getTransactionInfo(txid).catch(() => ({}) as TronTxInfo);
    if (info.id || info.blockNumber) {
      const outcome = info.receipt?.result;
      if (info.result === "FAILED" || (outcome && outcome !== "SUCCESS"))
        throw new Error(`The transaction failed on chain (${outcome ?? "FAILED"}).`);
      return;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error("The transaction was not confirmed in time. Check it in TronLink, then try again.");
}

/** Tron nodes return error messages hex-encoded. */
function hexToText(message: string): string {
  if (!/^[0-9a-f]+$/i.test(message) || message.length % 2) return message;
  const bytes = new Uint8Array(message.match(/../g)?.map((b) => Number.parseInt(b, 16)) ?? []);
  return new TextDecoder().decode(bytes);
}
