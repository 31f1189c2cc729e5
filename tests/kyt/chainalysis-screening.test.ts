import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as createPayoutLink } from "@/app/v2/secure-payments/payouts/route";
import { db } from "@/lib/db";
import { env, reloadEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { ChainalysisSanctionsProvider } from "@/lib/kyt/chainalysis";
import { sanctionsListProvider } from "@/lib/kyt/sanctions-list";
import { configuredKytProvider, screenWallet } from "@/lib/kyt/screen";
import { resetDb } from "@/tests/helpers/db";
import { makeIntegrator } from "@/tests/helpers/factories";
import { call } from "@/tests/helpers/http";
import { fixture, replayFetch } from "@/tests/helpers/replay-fetch";

const FLAGGED = "0x1da5821544e25c636c1417ba96ade4cf6d2f9b5a"; // Chainalysis' documented test vector
const CLEAR = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const ON_BUNDLED_LIST = "0x8589427373D6D84E98730D7795D8f6f8731FDA16";
/** Not on the bundled list; answered with the recorded sanctioned shape, as a newer designation would be. */
const VENDOR_ONLY = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const ch = (name: string) => fixture("chainalysis", name);

function vendor(answer: Parameters<typeof replayFetch>[0], timeoutMs?: number) {
  const r = replayFetch(answer);
  return {
    p: new ChainalysisSanctionsProvider({ apiKey: "ch-key", baseUrl: "https://public.chainalysis.com", fetch: r.fetch, timeoutMs }),
    calls: r.calls,
  };
}

async function unavailable(promise: Promise<unknown>) {
  const err = await promise.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  expect(err).toMatchObject({
    code: "upstream_unavailable",
    status: 503,
    message: "Screening is unavailable right now; try again shortly",
  });
  return err as AppError;
}

describe("Chainalysis Sanctions API adapter", () => {
  it("asks GET /api/v1/address/{address} with the X-API-Key header, Tron addresses on the same path", async () => {
    const { p, calls } = vendor(() => ch("address-clear"));
    await p.screen(FLAGGED, "base");
    await p.screen("TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW", "tron");
    expect(calls.map((c) => [c.method, c.url.toString()])).toEqual([
      ["GET", `https://public.chainalysis.com/api/v1/address/${FLAGGED}`],
      ["GET", "https://public.chainalysis.com/api/v1/address/TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW"],
    ]);
    expect(calls[0]!.headers.get("X-API-Key")).toBe("ch-key");
  });

  it("an identification rejects, with the vendor's name, description and report URL", async () => {
    const { p } = vendor(() => ch("address-sanctioned"));
    const r = await p.screen(FLAGGED, "mainnet");
    expect(r).toMatchObject({
      walletAddress: FLAGGED,
      status: "rejected",
      reasonCode: "sanctioned_address",
      provider: "chainalysis",
      rawStatus: "sanctions",
      reportUrl: "https://home.treasury.gov/news/press-releases/jy0126",
      notes: expect.stringMatching(/^SANCTIONS: OFAC SDN Secondeye Solution 2021-04-15 .* — Pakistan-based Secondeye Solution/),
    });
    expect(r.notes!.length).toBeLessThanOrEqual(500);
  });

  it("no identification approves", async () => {
    const { p } = vendor(() => ch("address-clear"));
    expect(await p.screen(CLEAR, "base")).toMatchObject({
      status: "approved",
      reasonCode: null,
      provider: "chainalysis",
      rawStatus: "clear",
      reportUrl: null,
    });
  });

  it("fails closed: 401, an HTML 403, 429 (its Retry-After), 503 and a timeout all throw 'screening unavailable'", async () => {
    await unavailable(vendor(() => ch("invalid-key-401")).p.screen(FLAGGED, "base"));
    await unavailable(vendor(() => ch("missing-key-403-html")).p.screen(FLAGGED, "base"));
    const limited = await unavailable(vendor(() => ch("rate-limited-429")).p.screen(FLAGGED, "base"));
    expect(limited.headers).toEqual({ "Retry-After": "60" });
    await unavailable(vendor(() => ch("server-error-503")).p.screen(FLAGGED, "base"));
    const slow = vendor(
      () => new Promise<Response>((_r, reject) => setTimeout(() => reject(new DOMException("timed out", "TimeoutError")), 5)),
      5,
    );
    await unavailable(slow.p.screen(FLAGGED, "base"));
    // A 200 that is not the documented shape does not approve either.
    await unavailable(
      vendor(() => ({ response: { status: 200, headers: { "content-type": "application/json" }, body: { ok: true } } })).p.screen(
        CLEAR,
        "base",
      ),
    );
  });
});

describe("KYT_PROVIDER=chainalysis: the bundled list and the vendor together", () => {
  const calls: string[] = [];
  let answer: (address: string) => string = () => "address-clear";

  beforeEach(() => {
    calls.length = 0;
    answer = () => "address-clear";
    const r = replayFetch((req) => {
      calls.push(req.url.pathname);
      return ch(answer(req.url.pathname));
    });
    vi.stubGlobal("fetch", r.fetch);
    process.env.KYT_PROVIDER = "chainalysis";
    process.env.CHAINALYSIS_API_KEY = "ch-key";
    process.env.CHAINALYSIS_API_URL = "https://chainalysis.test";
    reloadEnv();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    for (const k of ["KYT_PROVIDER", "CHAINALYSIS_API_KEY", "CHAINALYSIS_API_URL"]) delete process.env[k];
    reloadEnv();
  });

  it("a hit on the bundled list rejects without asking the vendor", async () => {
    const r = await screenWallet(ON_BUNDLED_LIST, "base", null, "payer");
    expect(r).toMatchObject({ status: "rejected", provider: "duebill-sanctions-list" });
    expect(calls).toEqual([]);
  });

  it("a vendor hit rejects an address the bundled list clears; both clear → approved by both", async () => {
    answer = (p) => (p.endsWith(VENDOR_ONLY) ? "address-sanctioned" : "address-clear");
    expect(await sanctionsListProvider.screen(VENDOR_ONLY, "base")).toMatchObject({ status: "approved" });
    expect(await screenWallet(VENDOR_ONLY, "base", null, "payer")).toMatchObject({ status: "rejected", provider: "chainalysis" });
    expect(await screenWallet(CLEAR, "base", null, "payer")).toMatchObject({
      status: "approved",
      provider: "duebill-sanctions-list+chainalysis",
    });
    expect(calls).toEqual([`/api/v1/address/${VENDOR_ONLY}`, `/api/v1/address/${CLEAR}`]);
  });

  it("the vendor down fails the screen; without KYT_PROVIDER the bundled list alone answers", async () => {
    answer = () => "server-error-503";
    await unavailable(screenWallet(CLEAR, "base", null, "payer"));
    delete process.env.KYT_PROVIDER;
    reloadEnv();
    expect(configuredKytProvider()).toBe(sanctionsListProvider);
    expect(await screenWallet(CLEAR, "base", null, "payer")).toMatchObject({ status: "approved" });
  });

  it("refuses KYT_PROVIDER=chainalysis without a key", () => {
    delete process.env.CHAINALYSIS_API_KEY;
    reloadEnv();
    expect(() => env()).toThrow("CHAINALYSIS_API_KEY: is required when KYT_PROVIDER=chainalysis");
  });

  it("an outgoing link whose payee cannot be screened is refused with 503, not created", async () => {
    await resetDb();
    const a = await makeIntegrator();
    answer = () => "rate-limited-429";
    const res = await call(createPayoutLink, "/v2/secure-payments/payouts", {
      method: "POST",
      headers: { "x-client-id": a.clientId },
      json: {
        recipient: CLEAR,
        creatorWalletAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
        network: "base",
        currency: "USDC-base",
        amount: "5",
      },
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: "upstream_unavailable", message: "Screening is unavailable right now; try again shortly" });
    expect(res.headers.get("retry-after")).toBe("60");
    expect(await db().securePayment.count()).toBe(0);
  });
});
