import { AppError, invalidField, notFound } from "@/lib/errors";
import { routingProvider } from "@/lib/routing/index";
import { RoutingProviderError } from "@/lib/routing/types";
import { loadLink } from "@/lib/secure-payments/page-data";

/**
 * `POST /v2/secure-payments/{token}/refresh-step-transaction`: re-stamps a bridge step's deadline just
 * before the payer submits it (the reference's LI.FI flow). With a provider whose steps expire (LI.FI)
 * the fresh transaction is returned; otherwise there is nothing to refresh and the answer says how to
 * get fresh calldata. Only for a link that can still be paid.
 */
export async function refreshStepTransaction(token: string, step: Record<string, unknown>) {
  const link = await loadLink(token);
  if (!link) throw notFound("Secure payment not found");
  const { status } = link;
  if (status !== "pending") throw new AppError("conflict", `This payment link is ${status.replace("_", " ")}`);
  const provider = routingProvider();
  if (!provider?.refreshStep)
    throw invalidField(
      "step",
      "no bridge step to refresh here: this server's routing provider builds fresh calldata on every GET /v2/secure-payments/{token}/pay with chain and token",
    );
  try {
    const tx = await provider.refreshStep(step);
    return { transactionRequest: { to: tx.to, data: tx.data, value: `0x${tx.value.toString(16)}`, chainId: tx.chainId } };
  } catch (err) {
    if (err instanceof RoutingProviderError && (err.code === "NO_ROUTE" || err.code === "BAD_REQUEST"))
      throw invalidField("step", `the route is no longer available: ${err.message}`);
    if (err instanceof RoutingProviderError)
      throw new AppError("upstream_unavailable", `The routing provider is unavailable: ${err.message}`, {
        headers: err.retryAfterSeconds ? { "retry-after": String(err.retryAfterSeconds) } : undefined,
      });
    throw err;
  }
}
