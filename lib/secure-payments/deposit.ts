import { renderSVG } from "uqr";
import { erc20Abi } from "viem";
import { asEvmAddress } from "@/lib/chain/address";
import { networkRuntime } from "@/lib/chain/config";
import type { NetworkId } from "@/lib/chain/networks";
import { publicClientFor } from "@/lib/chain/reader";
import { findTokenCurrency } from "@/lib/currencies/registry";
import { depositAmount, eip681Uri, ensureDepositAddress } from "@/lib/deposits/deposit-address";
import { AppError, notFound } from "@/lib/errors";
import { formatAmount } from "@/lib/money";
import { linkDepositUnavailable } from "@/lib/secure-payments/excess";
import { loadLink } from "@/lib/secure-payments/page-data";

/** `POST /v2/secure-payments/{token}/deposit-address`: how to pay the link with a plain token transfer. */
export interface LinkDeposit {
  /** The request's own deposit address (DuebillDepositAddress, else an ERC20SingleRequestProxy): send the token here, from any wallet or exchange. */
  address: string;
  network: { id: string; name: string; chainId: number };
  token: { symbol: string; address: string; decimals: number };
  /** Exactly what to send (human decimal, fees included) and the same in base units. */
  amount: string;
  amountUnits: string;
  /** What the address holds now and has not forwarded yet, and what is still to send (human decimals). */
  received: string;
  remaining: string;
  /** EIP-681 URI of the transfer; `qrSvg` encodes it. */
  uri: string;
  qrSvg: string;
}

export async function linkDeposit(token: string): Promise<LinkDeposit> {
  const link = await loadLink(token);
  if (!link) throw notFound("Secure payment not found");
  const { sp, requests } = link;
  const { status } = link;
  if (status !== "pending") throw new AppError("conflict", `This payment link is ${status.replace("_", " ")}`);
  const why = linkDepositUnavailable(sp, requests);
  if (why) throw new AppError("conflict", why);
  const request = requests[0];
  const currency = sp.currency ? findTokenCurrency(sp.currency) : undefined;
  if (!request || !currency) throw notFound("Secure payment not found");
  if (request.status === "paid") throw new AppError("conflict", "Already paid");
  const deposit = await ensureDepositAddress(request, sp.expiresAt);
  const address = deposit.address!;
  const network = networkRuntime(request.network as NetworkId).network;
  const amount = depositAmount(request);
  const held = await publicClientFor(network.id)!
    .readContract({ address: asEvmAddress(request.tokenAddress), abi: erc20Abi, functionName: "balanceOf", args: [asEvmAddress(address)] })
    .catch(() => 0n);
  const uri = eip681Uri(request.tokenAddress, network.chainId, address, amount);
  return {
    address,
    network: { id: network.id, name: network.name, chainId: network.chainId },
    token: { symbol: currency.token.symbol, address: currency.token.address, decimals: currency.token.decimals },
    amount: formatAmount(amount, currency.token.decimals),
    amountUnits: amount.toString(),
    received: formatAmount(held, currency.token.decimals),
    remaining: formatAmount(held >= amount ? 0n : amount - held, currency.token.decimals),
    uri,
    qrSvg: renderSVG(uri, { border: 2 }),
  };
}
