import { readFileSync } from "node:fs";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as conversionRoutes } from "@/app/v2/currencies/[currencyId]/conversion-routes/route";
import { GET as listCurrencies } from "@/app/v2/currencies/route";
import { POST as createDestination } from "@/app/v2/payee-destination/route";
import { POST as createPayout } from "@/app/v2/payouts/route";
import { POST as createRequest } from "@/app/v2/request/route";
import { POST as createPayoutLink } from "@/app/v2/secure-payments/payouts/route";
import { TOKENS, tokenCurrencyId } from "@/lib/chain/tokens";
import type { CatalogFile, CurrencyDto } from "@/lib/currencies/catalog";
import { REFERENCE_CATALOG } from "@/lib/currencies/catalog";
import { FIAT_CURRENCIES, fiatCurrencyHash } from "@/lib/currencies/fiat";
import { buildReferenceCatalog, catalogFilePath, serializeCatalog } from "@/scripts/gen/reference-currencies";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator, walletSessionToken } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";

/**
 * GET /v2/currencies serves the reference's own catalog (@requestnetwork/currency, a devDependency)
 * from the committed lib/currencies/reference-catalog.generated.json; the package itself is the
 * oracle here: the file must be exactly what the package gives today.
 */

let fromPackage: CatalogFile;
beforeAll(() => {
  fromPackage = buildReferenceCatalog();
}, 60_000);

let a: Awaited<ReturnType<typeof makeIntegrator>>;
beforeEach(async () => {
  await resetDb();
  a = await makeIntegrator();
});

const key = () => ({ "x-api-key": a.apiKey });
const list = (qs = "") => call(listCurrencies, `/v2/currencies${qs}`, { headers: key() });

/** Registry IDs the reference's catalog defines as another token; docs/guides/currencies.md lists them. */
const DOCUMENTED_ID_DIFFERENCES: Record<string, { catalog: string; here: string }> = {
  "USDC-matic": { catalog: "0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174", here: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359" },
  "USDC-optimism": { catalog: "0x7F5c764cBc14f9669B88837ca1490cCa17c31607", here: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85" },
};

describe("the generated catalog", () => {
  it("is exactly what @requestnetwork/currency gives (regenerate: npx tsx scripts/gen/reference-currencies.ts --write)", () => {
    expect(fromPackage.package).toBe("@requestnetwork/currency@0.33.0");
    expect(readFileSync(catalogFilePath(), "utf8")).toBe(serializeCatalog(fromPackage));
    expect(REFERENCE_CATALOG).toEqual(fromPackage.currencies);
  });

  it("holds more than 500 tokens and native currencies, unique IDs, and the ISO 4217 codes", () => {
    const tokens = REFERENCE_CATALOG.filter((c) => c.type !== "ISO4217");
    expect(tokens.length).toBeGreaterThan(500);
    const ids = REFERENCE_CATALOG.map((c) => c.id.toLowerCase());
    expect(new Set(ids).size).toBe(ids.length);
    expect(REFERENCE_CATALOG.filter((c) => c.type === "ISO4217").length).toBeGreaterThan(150);
  });

  it("gives Duebill's fiat invoice currencies the same hashes the package computes", () => {
    for (const f of FIAT_CURRENCIES) {
      const ref = REFERENCE_CATALOG.find((c) => c.id === f.code)!;
      expect(ref, f.code).toBeDefined();
      expect({ decimals: f.decimals, type: "ISO4217", hash: fiatCurrencyHash(f.code) }).toEqual({
        decimals: ref.decimals,
        type: ref.type,
        hash: ref.hash,
      });
    }
  });

  it("defines the registry's shared IDs as the same tokens, but the two documented differences", () => {
    const differences: Record<string, { catalog: string; here: string }> = {};
    for (const t of TOKENS) {
      const ref = REFERENCE_CATALOG.find((c) => c.id === tokenCurrencyId(t));
      if (!ref) continue;
      expect(ref.decimals, ref.id).toBe(t.decimals);
      if (ref.address?.toLowerCase() !== t.address.toLowerCase()) differences[ref.id] = { catalog: ref.address!, here: t.address };
    }
    expect(differences).toEqual(DOCUMENTED_ID_DIFFERENCES);
    const guide = readFileSync("docs/guides/currencies.md", "utf8");
    for (const [id, d] of Object.entries(DOCUMENTED_ID_DIFFERENCES)) {
      expect(guide).toContain(id);
      expect(guide).toContain(d.catalog);
    }
  });
});

describe("GET /v2/currencies over the catalog", () => {
  it("lists more than 500 currencies with the reference's IDs, the 8 networks' tokens first and unchanged", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    const body = res.body as CurrencyDto[];
    expect(body.length).toBeGreaterThan(500);
    const ids = new Set(body.map((c) => c.id));
    for (const c of REFERENCE_CATALOG) if (c.type !== "ISO4217") expect(ids, c.id).toContain(c.id);
    expect(body.slice(0, TOKENS.length).map((c) => c.id)).toEqual(
      ["mainnet", "arbitrum-one", "optimism", "base", "matic", "bsc", "tron", "sepolia"].flatMap((n) =>
        TOKENS.filter((t) => t.network === n).map(tokenCurrencyId),
      ),
    );
    expect(body.find((c) => c.id === "USDC-base")).toEqual({
      id: "USDC-base",
      name: "USD Coin",
      symbol: "USDC",
      decimals: 6,
      address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      network: "base",
      type: "ERC20",
      hash: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
      chainId: 8453,
    });
    // The ID the registry keeps answers with the registry's token (native USDC), listed once.
    expect(body.filter((c) => c.id === "USDC-matic")).toEqual([
      expect.objectContaining({ address: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359" }),
    ]);
    expect(body.find((c) => c.id === "AAVE-mainnet")).toMatchObject({ type: "ERC20", network: "mainnet", chainId: 1, decimals: 18 });
    expect(body.find((c) => c.id === "ETH-mainnet")).toMatchObject({ type: "ETH", address: null, chainId: 1 });
    expect(body.find((c) => c.id === "BTC-mainnet")).toMatchObject({ type: "BTC", chainId: null });
    expect(body.find((c) => c.id === "TRX-tron")).toMatchObject({ type: "ETH", chainId: 728126428 });
    expect(body.some((c) => c.type === "ISO4217")).toBe(false);
  });

  it("answers in the shape of the reference's examples (its OpenAPI gives examples, no schema)", async () => {
    const spec = JSON.parse(readFileSync("spec/reference-openapi.v2.json", "utf8"));
    const examples = spec.paths["/v2/currencies"].get.responses["200"].content["application/json"].examples;
    const exampleKeys = Object.keys(examples.firstOnly.value).sort();
    for (const c of (await list()).body as CurrencyDto[]) expect(Object.keys(c).sort(), c.id).toEqual(exampleKeys);
    // USDC-mainnet as the example has it; the hash of the 8 networks' tokens stays lowercased as before (the
    // reference itself answers it checksummed here and lowercased in its conversion-routes example).
    const lower = (c: CurrencyDto) => ({ ...c, hash: c.hash.toLowerCase() });
    const byId = await list(`?id=${examples.byId.value.id}`);
    expect(lower(byId.body)).toEqual(lower(examples.byId.value));
  });

  it("filters the catalog by network, symbol, id and firstOnly as before", async () => {
    const avalanche = await list("?network=avalanche");
    expect(avalanche.status).toBe(200);
    expect(avalanche.body.length).toBeGreaterThan(0);
    expect(avalanche.body.every((c: CurrencyDto) => c.network === "avalanche" && c.chainId === 43114)).toBe(true);
    const first = await list("?network=avalanche&symbol=usdt&firstOnly=true");
    expect(first.body).toMatchObject({ id: "USDT-avalanche", symbol: "USDT", network: "avalanche" });
    const byId = await list("?id=aave-mainnet");
    expect(byId.body).toMatchObject({ id: "AAVE-mainnet", symbol: "AAVE" });
    const chf = await list("?id=CHF");
    expect(chf.body).toMatchObject({ id: "CHF", type: "ISO4217", network: null, decimals: 2 });
    const usdcMatic = await list("?id=USDC-matic");
    expect(usdcMatic.body.address).toBe("0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359");
    expect((await list("?id=AAVE-mainnet&network=base")).status).toBe(404);
    const unknown = await list("?network=dogechain");
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ field: "network" });
    expect(unknown.body.errors[0].message).toContain("avalanche");
  });

  it("answers conversion routes of a listed-only currency with none", async () => {
    const res = await call(conversionRoutes, "/v2/currencies/CHF/conversion-routes", { headers: key(), params: { currencyId: "CHF" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ currencyId: "CHF", network: null, conversionRoutes: [] });
  });
});

describe("payments stay on the 8 networks' tokens", () => {
  const PAYABLE = "only the listed tokens on the 8 networks are payable";

  it("a request or payout in a catalog currency is a 400 naming paymentCurrency (or invoiceCurrency)", async () => {
    const req = await call(createRequest, "/v2/request", {
      method: "POST",
      headers: key(),
      json: {
        amount: "10",
        invoiceCurrency: "AAVE-mainnet",
        paymentCurrency: "AAVE-mainnet",
        payee: "0x5a523b449890854c8fc460ab602df9f31fe4293f",
      },
    });
    expect(req.status).toBe(400);
    expect(req.body.errors).toEqual([{ field: "paymentCurrency", message: expect.stringContaining(PAYABLE) }]);
    expect(req.body.errors[0].message).toMatch(/^AAVE-mainnet is in the currency catalog/);
    const usdcAvalanche = await call(createPayout, "/v2/payouts", {
      method: "POST",
      headers: key(),
      json: {
        amount: "10",
        invoiceCurrency: "USD",
        paymentCurrency: "USDC-avalanche",
        payee: "0x5a523b449890854c8fc460ab602df9f31fe4293f",
      },
    });
    expect(usdcAvalanche.status).toBe(400);
    expect(usdcAvalanche.body.errors[0]).toMatchObject({ field: "paymentCurrency", message: expect.stringContaining(PAYABLE) });
    // The catalog's name of a payable token points at the payable ID.
    const fusdc = await call(createRequest, "/v2/request", {
      method: "POST",
      headers: key(),
      json: { amount: "10", invoiceCurrency: "USD", paymentCurrency: "fUSDC-sepolia", payee: "0x5a523b449890854c8fc460ab602df9f31fe4293f" },
    });
    expect(fusdc.body.errors[0].message).toContain("the same token is payable as USDC-sepolia");
    const chf = await call(createRequest, "/v2/request", {
      method: "POST",
      headers: key(),
      json: { amount: "10", invoiceCurrency: "CHF", paymentCurrency: "USDC-base", payee: "0x5a523b449890854c8fc460ab602df9f31fe4293f" },
    });
    expect(chf.status).toBe(400);
    expect(chf.body.errors[0]).toEqual({
      field: "invoiceCurrency",
      message: "CHF is in the currency catalog but is not an invoice currency here: fiat invoices are in USD, EUR, CNY, GBP, JPY",
    });
    const unknown = await call(createRequest, "/v2/request", {
      method: "POST",
      headers: key(),
      json: { amount: "10", invoiceCurrency: "USD", paymentCurrency: "DOGE-nowhere", payee: "0x5a523b449890854c8fc460ab602df9f31fe4293f" },
    });
    expect(unknown.body.errors[0]).toEqual({ field: "paymentCurrency", message: 'Unknown currency "DOGE-nowhere"' });
  });

  it("a payout link or a destination in a catalog currency is a 400 naming currency", async () => {
    const link = await call(createPayoutLink, "/v2/secure-payments/payouts", {
      method: "POST",
      headers: key(),
      json: {
        recipient: "0x5a523b449890854c8fc460ab602df9f31fe4293f",
        creatorWalletAddress: "0x1111111111111111111111111111111111111111",
        network: "mainnet",
        currency: "WETH-mainnet",
        amount: "1",
      },
    });
    expect(link.status).toBe(400);
    expect(link.body.errors[0]).toMatchObject({ field: "currency", message: expect.stringContaining(PAYABLE) });
    const wallet = "0x5a523b449890854c8fc460ab602df9f31fe4293f";
    const dest = await call(createDestination, "/v2/payee-destination", {
      method: "POST",
      headers: { authorization: `Bearer ${await walletSessionToken(a.account.id, wallet)}` },
      json: { currency: "DAI-matic", walletAddress: wallet },
    });
    expect(dest.status).toBe(400);
    expect(dest.body.errors[0]).toMatchObject({ field: "currency", message: expect.stringContaining(PAYABLE) });
  });
});
