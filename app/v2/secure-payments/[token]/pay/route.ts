import { invalidField } from "@/lib/errors";
import { json, withApi } from "@/lib/http/handler";
import { payLinkOp } from "@/lib/operations/secure-payments";
import { planLinkPayment } from "@/lib/secure-payments/pay-link";
import { assertNoSafePaymentInProgress, planSafePayment } from "@/lib/secure-payments/safe";

export const dynamic = "force-dynamic";

export const GET = withApi(payLinkOp, async ({ params, query }) => {
  if (query.isSafe === "true") {
    if (query.eoaWallet !== undefined) throw invalidField("eoaWallet", "isSafe and eoaWallet are mutually exclusive: wallet is the Safe");
    if (query.chain !== undefined || query.token !== undefined)
      throw invalidField("isSafe", "a Safe pays on the link's network: cross-chain routes (chain, token) are not offered to Safe payers");
    return json(await planSafePayment(params.token, query.wallet));
  }
  // The reference's smart-account flow builds other calldata: refusing beats answering an EOA's plan for it.
  if (query.eoaWallet !== undefined && query.eoaWallet.toLowerCase() !== query.wallet.toLowerCase())
    throw invalidField("eoaWallet", "smart-account payers are not supported: pay from the wallet that holds the funds");
  await assertNoSafePaymentInProgress(params.token);
  return json(await planLinkPayment(params.token, query.wallet, { chain: query.chain, token: query.token, quoteId: query.quoteId }));
});
