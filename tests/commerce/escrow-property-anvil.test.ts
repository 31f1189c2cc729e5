/**
 * The escrow's invariants on anvil, over random sequences of authorize (signature or allowance),
 * capture (any amount, any fee), void, reclaim, refund (any amount), replayed signatures and clock
 * jumps (minutes to past the capture deadline) on three payments at a time. A plain model predicts
 * each step's outcome (success or the named revert) from the rules alone; after every step:
 * - every payment: captured + released (voided or reclaimed) + capturable == authorized, refunded ≤ captured;
 * - the escrow holds exactly the sum of what is capturable (never stuck, never paid twice);
 * - the payer's balance moved by exactly −authorized + released + refunded, the payee's by captured − fees − refunds
 *   (the oracle is the token's balanceOf, read independently of the contract's own bookkeeping).
 * Seed: ESCROW_PROPERTY_SEED=<n> replays a run.
 */
import fc from "fast-check";
import { erc20Abi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentInfo } from "@/lib/commerce/payment-info";
import { type Devnet, startDevnet } from "@/scripts/devnet/index";
import { chainTime, moveDevnetClock } from "@/scripts/devnet/time";
import { harness, revertName } from "./escrow-harness";

let devnet: Devnet;
let h: ReturnType<typeof harness>;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0 });
  h = harness(devnet);
  // Unlimited allowances once: the payer's (allowance path) and the payee's (refunds).
  for (const w of [h.wallets.payer, h.wallets.payee]) {
    await h.mined(
      await w.writeContract({ address: devnet.tokens.USDC, abi: erc20Abi, functionName: "approve", args: [h.escrow, 2n ** 255n] }),
    );
  }
}, 60_000);
afterAll(() => devnet?.stop());

type Cmd =
  | { k: "authorize"; i: number; viaSignature: boolean }
  | { k: "replay"; i: number }
  | { k: "capture"; i: number; amount: bigint; feeBps: number }
  | { k: "void"; i: number }
  | { k: "reclaim"; i: number }
  | { k: "refund"; i: number; amount: bigint }
  | { k: "clock"; seconds: number };

const slot = fc.integer({ min: 0, max: 2 });
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ k: fc.constant("authorize" as const), i: slot, viaSignature: fc.boolean() }),
  fc.record({ k: fc.constant("replay" as const), i: slot }),
  fc.record({
    k: fc.constant("capture" as const),
    i: slot,
    amount: fc.bigInt({ min: 0n, max: 12_000_000n }),
    feeBps: fc.integer({ min: 0, max: 250 }),
  }),
  fc.record({ k: fc.constant("void" as const), i: slot }),
  fc.record({ k: fc.constant("reclaim" as const), i: slot }),
  fc.record({ k: fc.constant("refund" as const), i: slot, amount: fc.bigInt({ min: 0n, max: 12_000_000n }) }),
  fc.record({ k: fc.constant("clock" as const), seconds: fc.oneof(fc.integer({ min: 1, max: 3_600 }), fc.constant(86_400)) }),
);

interface Model {
  info: PaymentInfo;
  sig: `0x${string}` | null;
  authorized: bigint;
  capturable: bigint;
  captured: bigint;
  released: bigint;
  refunded: bigint;
  fees: bigint;
}

describe("DuebillCommerceEscrow invariants (fast-check on anvil)", () => {
  it("holds over random sequences of authorize/capture/void/reclaim/refund/replays/clock jumps", async () => {
    const seed = process.env.ESCROW_PROPERTY_SEED ? Number(process.env.ESCROW_PROPERTY_SEED) : undefined;
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(cmd, { minLength: 5, maxLength: 18 }),
        fc.array(fc.bigInt({ min: 1n, max: 10_000_000n }), { minLength: 3, maxLength: 3 }),
        async (cmds, amounts) => {
          const now = await chainTime(devnet.rpcUrl);
          // Capture deadline one day out: a "clock" step of 86 400 s crosses it; pre-approval ends an hour in.
          const models: Model[] = [];
          for (const amount of amounts) {
            const info = await h.info({
              maxAmount: amount,
              maxFeeBps: 200,
              preApprovalExpiry: now + 3_600,
              authorizationExpiry: now + 86_400,
            });
            models.push({ info, sig: null, authorized: 0n, capturable: 0n, captured: 0n, released: 0n, refunded: 0n, fees: 0n });
          }
          const payer0 = await h.balanceOf(devnet.accounts.payer.address);
          const payee0 = await h.balanceOf(devnet.accounts.payee.address);
          const escrow0 = await h.balanceOf(h.escrow);

          for (const c of cmds) {
            steps++;
            const t = (await chainTime(devnet.rpcUrl)) + 1; // the next block's time (automine: +1 s at least)
            if (c.k === "clock") {
              await moveDevnetClock(devnet.rpcUrl, { kind: "shift", seconds: c.seconds });
              continue;
            }
            const m = models[c.i]!;
            const p = m.info;
            let expected: string | null = null;
            let run: () => Promise<unknown>;
            if (c.k === "authorize" || c.k === "replay") {
              if (c.k === "replay" && !m.sig) continue;
              const viaSig = c.k === "replay" || c.viaSignature;
              if (t >= p.preApprovalExpiry) expected = "PreApprovalExpired";
              else if (m.authorized > 0n) expected = "AlreadyAuthorized";
              if (viaSig) {
                m.sig ??= await h.signAuthorization(p);
                const sig = m.sig;
                run = () => h.call("stranger", "authorizeWithSignature", [p, sig]);
              } else run = () => h.call("payer", "authorizeWithAllowance", [p]);
              if (!expected)
                run = withEffect(run, () => {
                  m.authorized = p.maxAmount;
                  m.capturable = p.maxAmount;
                });
            } else if (c.k === "capture") {
              const fee = (c.amount * BigInt(c.feeBps)) / 10_000n;
              if (t >= p.authorizationExpiry) expected = "AuthorizationExpired";
              else if (c.amount === 0n) expected = "ZeroAmount";
              else if (c.amount > m.capturable) expected = "ExceedsCapturable";
              else if (fee * 10_000n > c.amount * BigInt(p.maxFeeBps)) expected = "FeeTooHigh";
              run = () => h.call("operator", "capture", [p, c.amount, fee]);
              if (!expected)
                run = withEffect(run, () => {
                  m.capturable -= c.amount;
                  m.captured += c.amount;
                  m.fees += fee;
                });
            } else if (c.k === "void") {
              if (m.capturable === 0n) expected = "NothingToVoid";
              run = () => h.call("operator", "void", [p]);
              if (!expected)
                run = withEffect(run, () => {
                  m.released += m.capturable;
                  m.capturable = 0n;
                });
            } else if (c.k === "reclaim") {
              if (t < p.authorizationExpiry) expected = "AuthorizationNotExpired";
              else if (m.capturable === 0n) expected = "NothingToReclaim";
              run = () => h.call("payer", "reclaim", [p]);
              if (!expected)
                run = withEffect(run, () => {
                  m.released += m.capturable;
                  m.capturable = 0n;
                });
            } else {
              if (c.amount === 0n) expected = "ZeroAmount";
              else if (m.refunded + c.amount > m.captured) expected = "RefundExceedsCaptured";
              run = () => h.call("payee", "refund", [p, c.amount]);
              if (!expected)
                run = withEffect(run, () => {
                  m.refunded += c.amount;
                });
            }
            if (expected) expect(await revertName(run()), `${c.k} on payment ${c.i}`).toBe(expected);
            else await run();

            // Invariants, from the chain.
            for (const x of models) {
              const s = await h.state(x.info);
              expect(s.capturable).toBe(x.capturable);
              expect(s.captured).toBe(x.captured);
              expect(s.refunded).toBe(x.refunded);
              expect(x.captured + x.released + x.capturable).toBe(x.authorized);
              expect(x.refunded <= x.captured).toBe(true);
            }
            const sum = (f: (x: Model) => bigint) => models.reduce((a, x) => a + f(x), 0n);
            expect(await h.balanceOf(h.escrow)).toBe(escrow0 + sum((x) => x.capturable));
            expect(await h.balanceOf(devnet.accounts.payer.address)).toBe(
              payer0 - sum((x) => x.authorized) + sum((x) => x.released + x.refunded),
            );
            expect(await h.balanceOf(devnet.accounts.payee.address)).toBe(payee0 + sum((x) => x.captured - x.fees - x.refunded));
          }
        },
      ),
      { numRuns: 25, seed, endOnFailure: true },
    );
    console.log(`[escrow property] ${steps} steps checked`);
  }, 600_000);
});

/** Runs the call; applies the model's effect only once the transaction is mined successfully. */
function withEffect(run: () => Promise<unknown>, effect: () => unknown) {
  return async () => {
    const hash = (await run()) as `0x${string}`;
    await h.mined(hash);
    effect();
  };
}
