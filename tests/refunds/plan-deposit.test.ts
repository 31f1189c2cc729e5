/**
 * The deposit sweep's rule for Duebill's deposit addresses (lib/deposits/returns.ts planDeposit), on fixed
 * cases: the payee first, then what the request did not ask for by the link's policy. Amounts in whole
 * units for reading; the contract's own guarantees are tests/deposits/deposit-contract.test.ts.
 */
import { describe, expect, it } from "vitest";
import { wrongAmountText } from "@/components/pay/panels/wrong-amount-note";
import { type DepositState, planDeposit } from "@/lib/deposits/returns";

const base: DepositState = {
  balance: 0n,
  heldOnTime: 0n,
  owed: 10n,
  feeDue: 1n,
  expired: false,
  contractClosed: false,
  policy: "return",
  returnTo: "0xpayer",
};
const plan = (s: Partial<DepositState>) => planDeposit({ ...base, ...s });

describe("planDeposit", () => {
  it("waits while an open link's address holds less than the payee and the fee are owed", () => {
    expect(plan({ balance: 10n })).toEqual([]);
  });
  it("forwards exactly what is owed (the fee taken with it)", () => {
    expect(plan({ balance: 11n })).toEqual([{ kind: "forward", toPayee: 10n }]);
  });
  it("return: pays the payee, then sends the excess back", () => {
    expect(plan({ balance: 13n })).toEqual([
      { kind: "forward", toPayee: 10n },
      { kind: "return", amount: 2n, reason: "excess" },
    ]);
  });
  it("an excess after the payee was paid goes back alone", () => {
    expect(plan({ balance: 3n, owed: 0n, feeDue: 0n })).toEqual([{ kind: "return", amount: 3n, reason: "excess" }]);
  });
  it("offer, keep, or no single wallet to return to: everything to the payee, fee first", () => {
    for (const s of [{ policy: "offer" as const }, { policy: "keep" as const }, { returnTo: null }]) {
      expect(plan({ balance: 13n, ...s })).toEqual([{ kind: "forward", toPayee: 12n }]);
    }
  });
  it("expired short: the balance goes back once the contract's closing time has passed (before it: waits)", () => {
    expect(plan({ balance: 4n, heldOnTime: 4n, expired: true, contractClosed: true })).toEqual([
      { kind: "return", amount: 4n, reason: "underpaid" },
    ]);
    expect(plan({ balance: 4n, heldOnTime: 4n, expired: true })).toEqual([]);
    expect(plan({ balance: 4n, heldOnTime: 4n, expired: true, policy: "offer" })).toEqual([{ kind: "forward", toPayee: 3n }]);
    // Less than the fee: nothing worth forwarding yet.
    expect(plan({ balance: 1n, heldOnTime: 1n, expired: true, policy: "offer" })).toEqual([]);
  });
  it("expired: what came after the expiry is late, what came before and covers the payee is paid first", () => {
    expect(plan({ balance: 10n, heldOnTime: 0n, expired: true, contractClosed: true })).toEqual([
      { kind: "return", amount: 10n, reason: "late" },
    ]);
    expect(plan({ balance: 15n, heldOnTime: 11n, expired: true, contractClosed: true })).toEqual([
      { kind: "forward", toPayee: 10n },
      { kind: "return", amount: 4n, reason: "late" },
    ]);
    expect(plan({ balance: 14n, heldOnTime: 4n, expired: true, contractClosed: true })).toEqual([
      { kind: "return", amount: 4n, reason: "underpaid" },
      { kind: "return", amount: 10n, reason: "late" },
    ]);
  });
});

describe("what the hosted page tells a payer who paid a wrong amount", () => {
  const facts = {
    amountLabel: "over" as const,
    excessAmount: "2",
    returnedAmount: "0",
    paidAmount: "12",
    effectiveExcessPolicy: "offer" as const,
    returnsToSender: false,
    currency: { symbol: "USDC" },
  };
  it("says what happened and what happens to the money under the link's policy", () => {
    expect(wrongAmountText(facts)).toEqual({
      title: "You sent 2 USDC more than asked",
      body: "It went to the merchant, who can send the 2 USDC back to the address it came from in one click: contact them if you need it back.",
    });
    expect(wrongAmountText({ ...facts, returnedAmount: "2", effectiveExcessPolicy: "return" })?.body).toBe(
      "2 USDC was sent back to the address it came from.",
    );
    // Under `return` through the deposit address, before the return went out: it goes back by itself, no offer.
    expect(wrongAmountText({ ...facts, effectiveExcessPolicy: "return", returnsToSender: true })?.body).toBe(
      "The 2 USDC will be sent back automatically to the address it came from.",
    );
    expect(wrongAmountText({ ...facts, amountLabel: "late", effectiveExcessPolicy: "return", returnsToSender: true })?.body).toBe(
      "It will be sent back automatically to the address it came from.",
    );
    // A direct wallet payment to a `return` link (or a contract sender): the merchant is offered it.
    expect(wrongAmountText({ ...facts, effectiveExcessPolicy: "return", returnsToSender: false })?.body).toBe(
      "It went to the merchant, who can send the 2 USDC back to the address it came from in one click: contact them if you need it back.",
    );
    expect(wrongAmountText({ ...facts, amountLabel: "late", effectiveExcessPolicy: "keep" })).toEqual({
      title: "Your payment arrived after this link expired",
      body: "Contact the merchant about it.",
    });
    expect(wrongAmountText({ ...facts, amountLabel: "under", excessAmount: "0" })?.title).toBe(
      "This link expired before the whole amount arrived",
    );
    expect(wrongAmountText({ ...facts, amountLabel: "exact", excessAmount: "0" })).toBeNull();
    expect(wrongAmountText({ ...facts, amountLabel: null, excessAmount: "0" })).toBeNull();
  });
});
