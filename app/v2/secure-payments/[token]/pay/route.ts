import { invalidField } from "@/lib/errors";
import { json, withApi } from "@/lib/http/handler";
import { payLinkOp } from "@/lib/operations/secure-payments";
import { planLinkPayment } from "@/lib/secure-payments/pay-link";

export const dynamic = "force-dynamic";

export const GET = withApi(payLinkOp, async ({ params, query }) => {
  // The reference's smart-account and Safe flows build other calldata: refusing beats answering an EOA's plan for them.
  if (query.isSafe === "true") throw invalidField("isSafe", "Safe multisig payers are not supported: pay from the wallet itself");
  if (query.eoaWallet !== undefined && query.eoaWallet.toLowerCase() !== query.wallet.toLowerCase())
    throw invalidField("eoaWallet", "smart-account payers are not supported: pay from the wallet that holds the funds");
  return json(await planLinkPayment(params.token, query.wallet, { chain: query.chain, token: query.token, quoteId: query.quoteId }));
});
