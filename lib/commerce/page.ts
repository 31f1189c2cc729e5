import { networkRuntime } from "@/lib/chain/config";
import { isLocalChain, networkOf } from "@/lib/chain/stored";
import { db } from "@/lib/db";
import { formatAmount } from "@/lib/money";
import { relayerAddress } from "./chain";
import { commerceStatus } from "./operate";
import { amountsOf, capturableOf } from "./state";

/**
 * What the hosted page shows for a link paid by authorization: the amount held in the escrow (authorized,
 * not yet charged), what was charged of it, and until when the merchant may charge. Null when none of
 * the link's requests has an authorization still holding money.
 */
export async function authorizationHold(requestIds: string[], decimals: number) {
  if (requestIds.length === 0) return null;
  const rows = await db().commercePayment.findMany({
    where: { requestId: { in: requestIds }, status: { in: ["authorized", "partially_captured"] } },
  });
  if (rows.length === 0) return null;
  let held = 0n;
  let charged = 0n;
  let deadline = rows[0]!.authorizationExpiry;
  for (const cp of rows) {
    const a = amountsOf(cp);
    held += capturableOf(a);
    charged += a.captured;
    if (cp.authorizationExpiry < deadline) deadline = cp.authorizationExpiry;
  }
  return { held: formatAmount(held, decimals), charged: formatAmount(charged, decimals), captureDeadline: deadline.toISOString() };
}

/**
 * The dashboard's view of a request's commerce payment (lib/commerce/view.ts) with the chain its payee's
 * wallet signs refunds on, or null when the request has none.
 */
export async function commercePaymentOfRequest(accountId: string, requestId: string) {
  const cp = await db().commercePayment.findFirst({ where: { accountId, requestId } });
  if (!cp) return null;
  const view = await commerceStatus(accountId, requestId);
  const network = networkOf(cp);
  const runtime = networkRuntime(network);
  const relayer = relayerAddress();
  return {
    view: {
      ...view,
      symbol: view.currency.split("-")[0]!,
      operatorIsRelayer: Boolean(relayer && relayer.toLowerCase() === cp.operator.toLowerCase()),
    },
    payee: view.payee,
    chain: {
      chainId: runtime.network.chainId,
      name: runtime.network.name,
      testnet: runtime.network.testnet,
      rpcUrl: isLocalChain(network) ? runtime.rpcUrl : null,
    },
  };
}
