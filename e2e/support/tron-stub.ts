/**
 * A stand-in for the TronLink extension: `window.tronLink` / `window.tronWeb` with `ready`,
 * `defaultAddress`, `request({method: "tron_requestAccounts"})`,
 * `transactionBuilder.triggerSmartContract`, `trx.sign`, `trx.sendRawTransaction` and
 * `trx.getTransactionInfo`. Nothing reaches a chain (there is no local Tron chain): every
 * call is recorded for the test to assert on, and transactions "confirm" per `confirm`.
 */
import type { Page } from "@playwright/test";
import { serializeSignature } from "viem";
import { sign } from "viem/accounts";
import { tronMessageHash } from "@/lib/auth/sign-in/tron-message";

export interface TronStubOptions {
  /** Base58 address the wallet connects with. */
  address: string;
  /** Its 0x41-prefixed hex form (tronWeb.defaultAddress.hex). */
  hexAddress: string;
  /** Which transactions getTransactionInfo reports as mined: approvals only (default), all, or none. */
  confirm?: "approvals" | "all" | "none";
}

export interface TronStubCall {
  method: "request" | "triggerSmartContract" | "sign" | "signMessageV2" | "sendRawTransaction" | "getTransactionInfo";
  args: Record<string, unknown>;
}

interface StubState {
  calls: TronStubCall[];
  rejectNextSign: boolean;
}

/** Runs in the page (serialised by addInitScript). */
function injectTronLink(opts: TronStubOptions): void {
  const state: StubState = { calls: [], rejectNextSign: false };
  const record = (method: TronStubCall["method"], args: Record<string, unknown>) =>
    state.calls.push({ method, args: JSON.parse(JSON.stringify(args)) });
  const selectors = new Map<string, string>();
  let seq = 0;
  const tronWeb = {
    ready: false,
    defaultAddress: { base58: false as string | false, hex: false as string | false },
    fullNode: { host: "http://tron-stub.invalid" },
    transactionBuilder: {
      async triggerSmartContract(
        contract: string,
        functionSelector: string,
        options: Record<string, unknown>,
        parameters: unknown[],
        issuer: string,
      ) {
        record("triggerSmartContract", { contract, functionSelector, options, parameters, issuer });
        seq++;
        const txID = seq.toString(16).padStart(64, "0");
        selectors.set(txID, functionSelector);
        const value = {
          owner_address: issuer,
          contract_address: contract,
          data: `${functionSelector}:${String(options.rawParameter ?? options.input ?? "")}`,
        };
        return {
          result: { result: true },
          transaction: {
            txID,
            visible: true,
            raw_data: { contract: [{ type: "TriggerSmartContract", parameter: { value } }] },
            raw_data_hex: `0a02${txID.slice(-8)}`,
          },
        };
      },
    },
    trx: {
      async sign(tx: { txID: string }) {
        record("sign", { txID: tx.txID });
        if (state.rejectNextSign) {
          state.rejectNextSign = false;
          // What TronLink throws when the user closes the signature pop-up.
          throw "Confirmation declined by user";
        }
        return { ...tx, signature: ["5e".repeat(65)] };
      },
      /** TRON message v2, signed in the test process by `exposeTronSigner` (a real signature the server verifies). */
      async signMessageV2(message: string) {
        record("signMessageV2", { message });
        const signer = (window as unknown as { __tronStubSign?: (m: string) => Promise<string> }).__tronStubSign;
        if (!signer) throw new Error("tron stub: no signer exposed (exposeTronSigner)");
        return signer(message);
      },
      async sendRawTransaction(signed: { txID: string; signature?: string[] }) {
        record("sendRawTransaction", { txID: signed.txID, signed: Array.isArray(signed.signature) });
        return { result: true, txid: signed.txID, transaction: signed };
      },
      async getTransactionInfo(txid: string) {
        record("getTransactionInfo", { txid });
        const selector = selectors.get(txid) ?? "";
        const mined = opts.confirm === "all" || ((opts.confirm ?? "approvals") === "approvals" && selector.startsWith("approve("));
        return mined ? { id: txid, blockNumber: 1, receipt: { result: "SUCCESS" } } : {};
      },
      async getBlockByNumber() {
        return { blockID: `${"0".repeat(56)}2b6653dc` };
      },
    },
  };
  const tronLink = {
    ready: false,
    tronWeb,
    async request(args: { method: string }) {
      record("request", { method: args.method });
      if (args.method !== "tron_requestAccounts") throw new Error(`tron stub: unsupported ${args.method}`);
      tronLink.ready = true;
      tronWeb.ready = true;
      tronWeb.defaultAddress = { base58: opts.address, hex: opts.hexAddress };
      return { code: 200, message: "The site is already in the whitelist" };
    },
  };
  Object.assign(window, { tronLink, tronWeb, __tronStub: state });
}

export async function installTronStub(page: Page, opts: TronStubOptions): Promise<void> {
  await page.addInitScript(injectTronLink, opts);
}

export function tronStubCalls(page: Page): Promise<TronStubCall[]> {
  return page.evaluate(() => (window as unknown as { __tronStub: StubState }).__tronStub.calls);
}

/** The next signature request is declined, as when the user rejects it in TronLink. */
export function rejectNextTronSignature(page: Page): Promise<void> {
  return page.evaluate(() => {
    (window as unknown as { __tronStub: StubState }).__tronStub.rejectNextSign = true;
  });
}

/** Lets the stub sign TRON messages (v2) with `privateKey`, in the test process. */
export async function exposeTronSigner(page: Page, privateKey: `0x${string}`): Promise<void> {
  await page.exposeFunction("__tronStubSign", async (message: string) =>
    serializeSignature(await sign({ hash: tronMessageHash(message), privateKey })),
  );
}
