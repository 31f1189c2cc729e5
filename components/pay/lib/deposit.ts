import { groupAmount } from "@/components/shared/format";
import type { LinkDepositAnswer } from "@/lib/operations/checkout-schemas";

export type DepositTone = "wait" | "part" | "done";

/**
 * What the payer reads while the transfer is on its way: waiting, part received, received and being
 * confirmed. `seenFull`: the whole amount was seen at the address before (then an empty address is
 * its forwarding to the merchant, not a transfer still to come).
 */
export function depositProgress(
  deposit: Pick<LinkDepositAnswer, "received" | "remaining" | "amount" | "token">,
  merchant: string,
  seenFull = false,
): { text: string; tone: DepositTone } {
  if (deposit.received === "0" && seenFull)
    return { text: `Transfer received. Forwarding it to ${merchant} and confirming it on chain…`, tone: "done" };
  if (deposit.received === "0") return { text: "Waiting for your transfer… This page updates by itself.", tone: "wait" };
  if (deposit.remaining !== "0")
    return {
      text: `Received ${groupAmount(deposit.received)} of ${groupAmount(deposit.amount)} ${deposit.token.symbol}. Send the remaining ${groupAmount(deposit.remaining)} ${deposit.token.symbol} to the same address.`,
      tone: "part",
    };
  return { text: `Transfer received. Forwarding it to ${merchant} and confirming it on chain…`, tone: "done" };
}

/** The QR code as an image source: the SVG the API drew, as a data URI (nothing for next/image to optimise). */
export function qrDataUri(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
