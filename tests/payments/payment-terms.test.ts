import { decodeFunctionData } from "viem";
import { describe, expect, it } from "vitest";
import { erc20FeeProxyAbi } from "@/lib/chain/abis";
import { type NetworkRuntime, networkRuntime } from "@/lib/chain/config";
import { storedTermsOf } from "@/lib/chain/stored";
import { AppError } from "@/lib/errors";
import { planBatchPayment, planSinglePayment } from "@/lib/payments/plan";
import { resolveTerms } from "@/lib/payments/terms";

/**
 * Resolve once, pass it down (issue 25): a payment's terms carry the network's runtime, and the
 * plans build their calldata from the runtime they are handed, never from a second lookup.
 */
const PAYEE = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const REFERENCE = "0x0123456789abcdef" as const;
/** Stand-in contracts no network is configured with: only a plan that uses the runtime it was given can name them. */
const OWN_PROXY = "0x00000000000000000000000000000000000f0001";
const OWN_BATCH = "0x00000000000000000000000000000000000f0002";

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err.errors?.[0]?.field;
    throw err;
  }
  return undefined;
}

describe("resolveTerms", () => {
  it("resolves the network's runtime with the token, amounts, fee and payee", () => {
    const terms = resolveTerms({
      payee: PAYEE.toLowerCase(),
      amount: "25.5",
      invoiceCurrency: "USD",
      paymentCurrency: "USDC-base",
      feePercentage: "1",
      feeAddress: PAYEE,
    });
    expect(terms.runtime).toBe(networkRuntime("base"));
    expect(terms.token).toBe(networkRuntime("base").tokens.find((t) => t.symbol === "USDC"));
    expect(terms.expectedAmount).toBe(25_500_000n);
    expect(terms.feeAmount).toBe(255_000n);
    expect(terms.payee).toBe(PAYEE);
    expect(terms.payer).toBeUndefined();
  });

  it("validates the payer with the terms, after every other field", () => {
    const base = { payee: PAYEE, amount: "10", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" };
    const payer = (address: string) => ({ payer: { address, field: "payerWallet" } });
    expect(resolveTerms(base, "", payer(PAYEE.toLowerCase())).payer).toBe(PAYEE);
    expect(fieldOf(() => resolveTerms(base, "", payer("0x12")))).toBe("payerWallet");
    expect(fieldOf(() => resolveTerms({ ...base, payee: "0xnothex" }, "", payer("0x12")))).toBe("payee");
    expect(fieldOf(() => resolveTerms({ ...base, amount: "0.0000001" }, "", payer("0x12")))).toBe("amount");
  });
});

describe("plans use the runtime they are handed", () => {
  const own: NetworkRuntime = {
    ...networkRuntime("base"),
    rpcUrl: null,
    contracts: { ...networkRuntime("base").contracts, erc20FeeProxy: OWN_PROXY, batchPayments: OWN_BATCH },
  };

  it("a single payment pays through the runtime's fee proxy", async () => {
    const terms = resolveTerms({ payee: PAYEE, amount: "10", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" });
    const plan = await planSinglePayment(
      {
        runtime: own,
        tokenAddress: terms.token.address,
        payee: terms.payee,
        amount: terms.expectedAmount,
        feeAmount: 0n,
        feeAddress: null,
        paymentReference: REFERENCE,
        approveResetRequired: false,
      },
      undefined,
    );
    const [approve, pay] = plan.transactions;
    expect(pay?.to).toBe(OWN_PROXY);
    expect(approve?.data.slice(34, 74).toLowerCase()).toBe(OWN_PROXY.slice(2).toLowerCase());
    const call = decodeFunctionData({ abi: erc20FeeProxyAbi, data: pay!.data });
    expect(call.args).toEqual([terms.token.address, PAYEE, 10_000_000n, REFERENCE, 0n, "0x0000000000000000000000000000000000000000"]);
  });

  it("a batch goes to the runtime's batch contract", async () => {
    const token = networkRuntime("base").tokens[0]!.address;
    const plan = await planBatchPayment(
      own,
      [{ token, to: PAYEE, amount: 1n, paymentReference: REFERENCE, feeAmount: 0n, approveResetRequired: false }],
      null,
      undefined,
    );
    expect(plan.batch.to).toBe(OWN_BATCH);
    expect(plan.approvals.map((a) => a.data.slice(34, 74).toLowerCase())).toEqual([OWN_BATCH.slice(2).toLowerCase()]);
  });
});

describe("storedTermsOf", () => {
  it("reads a stored request's network, runtime and token back in one resolution", () => {
    const t = storedTermsOf({ network: "arbitrum-one", paymentCurrency: "USDT0-arbitrum-one" });
    expect(t.network).toBe("arbitrum-one");
    expect(t.runtime).toBe(networkRuntime("arbitrum-one"));
    expect(t.token.symbol).toBe("USDT0");
    expect(() => storedTermsOf({ network: "nowhere", paymentCurrency: "USDC-nowhere" })).toThrow(/unknown network/);
  });
});
