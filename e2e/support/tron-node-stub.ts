/**
 * A local TronGrid-compatible API for the journeys' server (TRON_API_URL), so it watches Tron as a
 * production deployment with TronGrid does, with nothing leaving this machine. It answers exactly what
 * lib/detection/tron-source.ts calls: the events of the ERC20FeeProxy (`GET /v1/contracts/{proxy}/events`:
 * none unless a test emits one with `emit`, as a paying transaction would; no Tron chain runs here, the Tron
 * journeys' wallet is e2e/support/tron-stub.ts), the head
 * (`/wallet/getnowblock`, advancing one block every 3 s as Tron does), blocks by number
 * (`/wallet/getblockbynum`, `{}` past the head as a node answers) and transactions
 * (`/wallet/gettransactionbyid`, `{}`: not found). Anything else is a 404, so a new call shows up in
 * the calls list and the server log instead of passing silently.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** Tron's block time. */
const BLOCK_MS = 3_000;
/** Past the Tron ERC20FeeProxy's creation block (lib/chain/deployments.ts), as mainnet is. */
const START_BLOCK = 80_000_000;

export interface TronNodeStub {
  url: string;
  /** Every request, as "METHOD /path", for a test to assert on. */
  calls: string[];
  /** Requests answered 404 (nothing the event source should make). */
  unknown: string[];
  /** The current head block. */
  head(): number;
  /**
   * Adds a `TransferWithReferenceAndFee` event of `proxy` at `block` (default: the head), as TronGrid
   * lists it (`result` arguments as `0x` + 40 hex addresses), sent by `from` (base58).
   */
  emit(e: { proxy: string; txId: string; from: string; block?: number; result: Record<string, string> }): {
    block: number;
    timestamp: number;
  };
  stop(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    let data = "";
    req.on("data", (c) => {
      data += c;
    });
    req.on("end", () => {
      try {
        const v = data ? JSON.parse(data) : {};
        resolve(v && typeof v === "object" ? v : {});
      } catch {
        resolve({});
      }
    });
  });
}

/** `blockMs`: the block time (Tron's 3 s by default; a test shortens it to see the head advance). */
export async function startTronNodeStub(opts: { blockMs?: number } = {}): Promise<TronNodeStub> {
  const blockMs = opts.blockMs ?? BLOCK_MS;
  const startedAt = Date.now();
  const head = () => START_BLOCK + Math.floor((Date.now() - startedAt) / blockMs);
  /** A node's block: blockID is the number (8 bytes) then 24 bytes of hash; deterministic per number. */
  const block = (n: number) => ({
    blockID: n.toString(16).padStart(16, "0") + createHash("sha256").update(`tron-node-stub:${n}`).digest("hex").slice(16),
    block_header: { raw_data: { number: n, timestamp: startedAt + (n - START_BLOCK) * blockMs } },
  });
  const calls: string[] = [];
  const unknown: string[] = [];
  const events: { proxy: string; txId: string; from: string; block: number; result: Record<string, string> }[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const call = `${req.method} ${url.pathname}`;
    calls.push(call);
    const body = req.method === "POST" ? await readBody(req) : {};
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(json));
    };
    const eventsOf = /^\/v1\/contracts\/([^/]+)\/events$/.exec(url.pathname);
    if (req.method === "GET" && eventsOf) {
      const min = Number(url.searchParams.get("min_block_timestamp") ?? 0);
      const max = Number(url.searchParams.get("max_block_timestamp") ?? Number.MAX_SAFE_INTEGER);
      const data = events
        .map((e, i) => ({ e, i, ts: block(e.block).block_header.raw_data.timestamp }))
        .filter(({ e, ts }) => e.proxy === eventsOf[1] && e.block <= head() && ts >= min && ts <= max)
        .map(({ e, i, ts }) => ({
          block_number: e.block,
          block_timestamp: ts,
          contract_address: e.proxy,
          event_index: i,
          event_name: "TransferWithReferenceAndFee",
          result: e.result,
          transaction_id: e.txId,
          _unconfirmed: false,
        }));
      return send(200, { data, success: true, meta: { at: Date.now(), page_size: data.length } });
    }
    if (url.pathname === "/wallet/getnowblock") return send(200, block(head()));
    if (url.pathname === "/wallet/getblockbynum") {
      const n = Number(body.num);
      return send(200, Number.isInteger(n) && n >= 0 && n <= head() ? block(n) : {});
    }
    if (url.pathname === "/wallet/gettransactionbyid") {
      const e = events.find((x) => x.txId === body.value);
      return send(
        200,
        e ? { txID: e.txId, raw_data: { contract: [{ parameter: { value: { owner_address: e.from, contract_address: e.proxy } } }] } } : {},
      );
    }
    unknown.push(call);
    send(404, { Error: `tron-node-stub does not answer ${call}` });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    unknown,
    head,
    emit(e) {
      const n = e.block ?? head();
      events.push({ ...e, block: n });
      return { block: n, timestamp: block(n).block_header.raw_data.timestamp };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
