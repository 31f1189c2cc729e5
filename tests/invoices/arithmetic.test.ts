import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { computeInvoice } from "@/lib/invoices/compute";

/**
 * The invoice arithmetic against values worked out by hand (below each case) and, for the
 * property, against the definition of ROUND_HALF_UP as an inequality on exact rationals.
 */

function fieldOf(fn: () => unknown): { field: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError && err.errors?.[0]) return err.errors[0];
    throw err;
  }
  throw new Error("did not throw");
}

describe("invoice arithmetic (USD, 2 decimals)", () => {
  it("3 lines, two tax rates: totals to the cent", () => {
    // By hand:
    //   3 × 149.99 = 449.97; 20 % = 89.994   → 89.99; line 539.96
    //   1 × 19.95  = 19.95;  7.5 % = 1.49625 → 1.50;  line 21.45
    //   2.5 × 80.10 = 200.25; 20 % = 40.05   → 40.05; line 240.30
    //   subtotal 670.17, tax 131.54, total 801.71; 20 %: base 650.22 tax 130.04; 7.5 %: base 19.95 tax 1.50
    const c = computeInvoice(
      [
        { description: "Consulting", quantity: "3", unitPrice: "149.99", taxRate: "20" },
        { description: "Hosting", quantity: 1, unitPrice: "19.95", taxRate: "7.5" },
        { description: "Setup (hours)", quantity: "2.5", unitPrice: "80.10", taxRate: "20" },
      ],
      2,
      "USD",
    );
    expect(c.lines.map((l) => [l.net, l.tax, l.total])).toEqual([
      ["449.97", "89.99", "539.96"],
      ["19.95", "1.50", "21.45"],
      ["200.25", "40.05", "240.30"],
    ]);
    expect([c.subtotal, c.taxTotal, c.total]).toEqual(["670.17", "131.54", "801.71"]);
    expect(c.taxes).toEqual([
      { rate: "7.5", base: "19.95", tax: "1.50" },
      { rate: "20", base: "650.22", tax: "130.04" },
    ]);
    expect(c.lines.map((l) => [l.quantity, l.unitPrice, l.taxRate])).toEqual([
      ["3", "149.99", "20"],
      ["1", "19.95", "7.5"],
      ["2.5", "80.10", "20"],
    ]);
  });

  it.each([
    // [net as qty × price, rate, expected tax]: each worked by hand
    ["0.05", "10", "0.01"], // 0.005 → half up → 0.01
    ["0.25", "10", "0.03"], // 0.025 → 0.03 (half-even would give 0.02)
    ["0.15", "10", "0.02"], // 0.015 → 0.02
    ["0.49", "1", "0.00"], // 0.0049 → 0.00
    ["1.00", "0.5", "0.01"], // 0.005 → 0.01
    ["1.00", "0.4999", "0.00"], // 0.004999 → 0.00
    ["10.00", "0", "0.00"],
    ["99.99", "100", "99.99"],
    ["0.10", "33.3333", "0.03"], // 0.0333333 → 0.03
    ["0.35", "10", "0.04"], // 0.035 → 0.04
  ])("net %s at %s %% → tax %s (ROUND_HALF_UP)", (price, rate, tax) => {
    const c = computeInvoice([{ description: "x", quantity: "1", unitPrice: price, taxRate: rate }], 2, "USD");
    expect(c.lines[0]!.tax).toBe(tax);
  });

  it("rounds per line, then sums: two lines of 0.005 tax are 0.02, not round(0.01) of the sum", () => {
    const c = computeInvoice(
      [
        { description: "a", quantity: "1", unitPrice: "0.05", taxRate: "10" },
        { description: "b", quantity: "1", unitPrice: "0.05", taxRate: "10" },
      ],
      2,
      "USD",
    );
    expect([c.taxTotal, c.total]).toEqual(["0.02", "0.12"]);
    expect(c.taxes).toEqual([{ rate: "10", base: "0.10", tax: "0.02" }]);
  });

  it("lines without a rate are in no tax row; a 0 % rate is a row of its own", () => {
    const c = computeInvoice(
      [
        { description: "a", quantity: "1", unitPrice: "10" },
        { description: "b", quantity: "1", unitPrice: "5", taxRate: "0" },
        { description: "c", quantity: "1", unitPrice: "0", taxRate: null },
      ],
      2,
      "EUR",
    );
    expect(c.taxes).toEqual([{ rate: "0", base: "5.00", tax: "0.00" }]);
    expect([c.subtotal, c.taxTotal, c.total]).toEqual(["15.00", "0.00", "15.00"]);
  });

  it("JPY has no minor unit: 3 × 333 = 999, 10 % = 99.9 → 100", () => {
    const c = computeInvoice([{ description: "x", quantity: "3", unitPrice: "333", taxRate: "10" }], 0, "JPY");
    expect([c.lines[0]!.net, c.lines[0]!.tax, c.total]).toEqual(["999", "100", "1099"]);
  });

  it("a token rounds to its own decimals: USDC 1000 × 0.0125 = 12.50; 3 × 0.0125 = 0.0375, 8.25 % = 0.00309375 → 0.003094", () => {
    expect(computeInvoice([{ description: "x", quantity: "1000", unitPrice: "0.0125" }], 2, "USD").total).toBe("12.50");
    const c = computeInvoice([{ description: "x", quantity: "3", unitPrice: "0.0125", taxRate: "8.25" }], 6, "USDC-base");
    expect([c.lines[0]!.net, c.lines[0]!.tax, c.total]).toEqual(["0.0375", "0.003094", "0.040594"]);
  });

  it("a net finer than the currency is refused, naming the field that makes it so", () => {
    const price = fieldOf(() => computeInvoice([{ description: "x", quantity: "3", unitPrice: "0.0125" }], 2, "USD"));
    expect(price.field).toBe("invoice.lines.0.unitPrice");
    expect(price.message).toContain("0.0375");
    const qty = fieldOf(() =>
      computeInvoice(
        [
          { description: "ok", quantity: "1", unitPrice: "1" },
          { description: "x", quantity: "1.5", unitPrice: "0.01" },
        ],
        2,
        "USD",
      ),
    );
    expect(qty.field).toBe("invoice.lines.1.quantity");
    expect(qty.message).toContain("0.015");
  });

  it.each([
    [{ quantity: "0" }, "invoice.lines.0.quantity", "greater than 0"],
    [{ quantity: "1.0000001" }, "invoice.lines.0.quantity", "6 decimal"],
    [{ quantity: "-1" }, "invoice.lines.0.quantity", "positive decimal"],
    [{ quantity: 1e-7 }, "invoice.lines.0.quantity", "positive decimal"],
    [{ unitPrice: "-1" }, "invoice.lines.0.unitPrice", "decimal string"],
    [{ unitPrice: "1e3" }, "invoice.lines.0.unitPrice", "decimal string"],
    [{ unitPrice: "1".repeat(19) }, "invoice.lines.0.unitPrice", "at most 18 digits"],
    [{ taxRate: "100.01" }, "invoice.lines.0.taxRate", "at most 100"],
    [{ taxRate: "7.12345" }, "invoice.lines.0.taxRate", "4 decimal"],
    [{ taxRate: "abc" }, "invoice.lines.0.taxRate", "percentage"],
    [{ description: " " }, "invoice.lines.0.description", "required"],
    [{ description: "x".repeat(501) }, "invoice.lines.0.description", "500"],
  ])("refuses %o naming %s", (patch, field, words) => {
    const e = fieldOf(() => computeInvoice([{ description: "x", quantity: "1", unitPrice: "1", ...patch }], 2, "USD"));
    expect(e.field).toBe(field);
    expect(e.message).toContain(words);
  });

  it("at most 100 lines, at least 1", () => {
    const line = { description: "x", quantity: "1", unitPrice: "1" };
    expect(computeInvoice(Array(100).fill(line), 2, "USD").total).toBe("100.00");
    expect(fieldOf(() => computeInvoice(Array(101).fill(line), 2, "USD")).field).toBe("invoice.lines");
    expect(fieldOf(() => computeInvoice([], 2, "USD")).field).toBe("invoice.lines");
  });
});

describe("invoice arithmetic properties", () => {
  const units = (s: string, d: number) => {
    const [w = "0", f = ""] = s.split(".");
    return BigInt(w + f.padEnd(d, "0"));
  };
  const line = fc.record({
    quantity: fc.integer({ min: 1, max: 100_000 }),
    cents: fc.bigInt({ min: 0n, max: 10n ** 12n }),
    rateE4: fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null }),
  });

  it("total = subtotal + taxTotal, Σ lines = totals, each tax the half-up rounding of net × rate / 100", () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 30 }), fc.constantFrom(0, 2, 6, 18), (ls, d) => {
        const inputs = ls.map((l) => {
          const p = l.cents.toString().padStart(d + 1, "0");
          const unitPrice = d > 0 ? `${p.slice(0, -d)}.${p.slice(-d)}` : p;
          const taxRate = l.rateE4 === null ? null : (l.rateE4 / 10_000).toFixed(4);
          return { description: "p", quantity: String(l.quantity), unitPrice, taxRate };
        });
        const c = computeInvoice(inputs, d, "X");
        const u = (s: string) => units(s, d);
        expect(u(c.total)).toBe(u(c.subtotal) + u(c.taxTotal));
        expect(c.lines.reduce((s, l) => s + u(l.net), 0n)).toBe(u(c.subtotal));
        expect(c.lines.reduce((s, l) => s + u(l.tax), 0n)).toBe(u(c.taxTotal));
        expect(c.lines.reduce((s, l) => s + u(l.total), 0n)).toBe(u(c.total));
        expect(c.taxes.reduce((s, t) => s + u(t.tax), 0n)).toBe(u(c.taxTotal));
        ls.forEach((l, i) => {
          const net = BigInt(l.quantity) * l.cents;
          expect(u(c.lines[i]!.net)).toBe(net);
          // ROUND_HALF_UP as a definition: tax − net × rate/100 ∈ (−½, +½] minor units, i.e. with rate = e4/10^4:
          // −5·10^5 < tax·10^6 − net·e4 ≤ 5·10^5.
          const e4 = BigInt(l.rateE4 ?? 0);
          const diff = u(c.lines[i]!.tax) * 1_000_000n - net * e4;
          expect(diff > -500_000n && diff <= 500_000n).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
  });
});
