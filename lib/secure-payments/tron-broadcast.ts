import { hexToTron, sameAddress } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import { TronGridError, tronGridCall } from "@/lib/chain/trongrid-http";
import { env } from "@/lib/env";
import { AppError, invalidField, notFound } from "@/lib/errors";
import { loadLink } from "@/lib/secure-payments/page-data";
import { recordSubmission } from "@/lib/secure-payments/submission";

export interface SignedTronTransaction {
  raw_data_hex: string;
  signature: string[];
  txID?: string;
  raw_data: { contract: unknown[]; [k: string]: unknown };
  [k: string]: unknown;
}

interface BroadcastAnswer {
  result?: boolean;
  code?: string;
  message?: string;
  txid?: string;
}

/** The contract a TriggerSmartContract transaction calls, as base58, or null when it is another kind. */
function calledContract(tx: SignedTronTransaction): string | null {
  const c = tx.raw_data.contract[0] as { type?: string; parameter?: { value?: { contract_address?: string } } } | undefined;
  const address = c?.parameter?.value?.contract_address;
  if (c?.type !== "TriggerSmartContract" || typeof address !== "string") return null;
  try {
    return address.startsWith("T") ? address : hexToTron(address);
  } catch {
    return null;
  }
}

/** A node's `message` is hex-encoded UTF-8 unless `visible=true` (docs/spec/provider-notes.md §2 "Broadcast"). */
function decodeMessage(m: string | undefined): string | undefined {
  if (!m || !/^[0-9a-fA-F]+$/.test(m) || m.length % 2 !== 0) return m;
  return Buffer.from(m, "hex").toString("utf8");
}

/**
 * `POST /v2/secure-payments/{token}/tron/broadcast`: relays the payer's signed Tron transaction for
 * a pending Tron link through the configured Tron node API (TronGrid's /wallet/broadcasttransaction).
 * Only a call to the link's token (its approval) or to the Tron ERC20FeeProxy is relayed. Without a
 * configured node: 503 saying what production needs. On acceptance the link shows "processing".
 */
export async function broadcastTronTransaction(token: string, tx: SignedTronTransaction, fetchImpl: typeof fetch = fetch) {
  const link = await loadLink(token);
  if (!link) throw notFound("Secure payment not found");
  if (link.sp.network !== "tron") throw invalidField("signedTransaction", `this link is on ${link.sp.network}, not Tron`);
  const { status } = link;
  if (status !== "pending") throw new AppError("conflict", `This payment link is ${status.replace("_", " ")}`);
  const target = calledContract(tx);
  const feeProxy = networkRuntime("tron").contracts.erc20FeeProxy;
  const tokens = link.requests.map((r) => r.tokenAddress);
  if (!target || !(sameAddress(target, feeProxy) || tokens.some((t) => sameAddress(t, target))))
    throw invalidField("signedTransaction", "must call the link's token (approval) or the Tron ERC20FeeProxy (payment)");
  const { TRON_API_URL, TRON_API_KEY } = env();
  if (!TRON_API_URL)
    throw new AppError(
      "upstream_unavailable",
      "Tron broadcasting is not configured on this server: it needs a Tron node API (TRON_API_URL, e.g. https://api.trongrid.io, and TRON_API_KEY). Broadcast the signed transaction from the wallet instead.",
    );
  let answer: BroadcastAnswer;
  try {
    answer = await tronGridCall<BroadcastAnswer>(
      {
        baseUrl: TRON_API_URL,
        apiKey: TRON_API_KEY,
        fetch: fetchImpl,
        timeoutMs: 10_000,
        maxRetries: 2,
        sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      },
      "POST",
      "wallet/broadcasttransaction",
      { body: tx },
    );
  } catch (err) {
    if (err instanceof TronGridError)
      throw new AppError("upstream_unavailable", `The Tron node did not take the transaction: ${err.message}`);
    throw err;
  }
  const txid = answer.txid ?? tx.txID;
  if (answer.result && txid) await recordSubmission(token, { txHash: txid.startsWith("0x") ? txid : `0x${txid}` });
  return {
    result: answer.result === true,
    txid: txid ?? "",
    code: answer.code ?? (answer.result ? "SUCCESS" : "OTHER_ERROR"),
    message: decodeMessage(answer.message) ?? "",
  };
}
