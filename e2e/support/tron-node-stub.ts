/**
 * A local TronGrid-compatible API for the journeys' server (TRON_API_URL), so it watches Tron as a
 * production deployment with TronGrid does, with nothing leaving this machine. It answers exactly what
 * lib/detection/tron-source.ts calls: the events of the ERC20FeeProxy (`GET /v1/contracts/{proxy}/events`,
 * always none: no Tron chain runs here, the Tron journeys' wallet is e2e/support/tron-stub.ts), the head
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
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const call = `${req.method} ${url.pathname}`;
    calls.push(call);
    const body = req.method === "POST" ? await readBody(req) : {};
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(json));
    };
    if (req.method === "GET" && /^\/v1\/contracts\/[^/]+\/events$/.test(url.pathname)) {
      return send(200, { data: [], success: true, meta: { at: Date.now(), page_size: 0 } });
    }
    if (url.pathname === "/wallet/getnowblock") return send(200, block(head()));
    if (url.pathname === "/wallet/getblockbynum") {
      const n = Number(body.num);
      return send(200, Number.isInteger(n) && n >= 0 && n <= head() ? block(n) : {});
    }
    if (url.pathname === "/wallet/gettransactionbyid") return send(200, {});
    unknown.push(call);
    send(404, { Error: `tron-node-stub does not answer ${call}` });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    unknown,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
