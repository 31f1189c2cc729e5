/**
 * The e2e server's TronGrid stand-in (e2e/support/tron-node-stub.ts) answers everything the Tron
 * event source asks (lib/detection/tron-source.ts), so the journeys' detection sweeps run cleanly:
 * a sweep from the stored cursor to an advancing head, no events, no call it does not know.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTronNodeStub, type TronNodeStub } from "@/e2e/support/tron-node-stub";
import { db } from "@/lib/db";
import { sweepDetectionNetwork } from "@/lib/detection/sweep";
import { TronGridEventSource } from "@/lib/detection/tron-source";
import { resetDb } from "@/tests/helpers/db";

const PROXY = "TCUDPYnS9dH3WvFEaE7wN7vnDa51J4R4fd";

describe("the e2e TronGrid stand-in", () => {
  let node: TronNodeStub;
  beforeEach(async () => {
    await resetDb();
    node = await startTronNodeStub({ blockMs: 50 });
  });
  afterEach(() => node.stop());

  const source = () =>
    new TronGridEventSource({
      baseUrl: node.url,
      proxyAddress: PROXY,
      confirmations: 19,
      creationBlock: 79216121n,
      initialLookback: 100n,
      headTtlMs: 0,
      maxRetries: 0,
    });

  it("carries a Tron sweep from its cursor to an advancing head with no events and no unknown call", async () => {
    const s = source();
    const first = await sweepDetectionNetwork(s);
    expect(first).toMatchObject({ network: "tron", events: 0, recorded: 0 });
    expect(first.toBlock).not.toBeNull();
    const cursor1 = await db().chainCursor.findUniqueOrThrow({ where: { network: "tron" } });
    expect(cursor1.lastBlock).toBe(BigInt(first.toBlock as string));
    expect(cursor1.lastBlock).toBeGreaterThan(79216121n);

    await new Promise((r) => setTimeout(r, 300));
    const second = await sweepDetectionNetwork(source());
    expect(second.events).toBe(0);
    expect(BigInt(second.fromBlock as string)).toBe(cursor1.lastBlock + 1n);
    const cursor2 = await db().chainCursor.findUniqueOrThrow({ where: { network: "tron" } });
    expect(cursor2.lastBlock).toBeGreaterThan(cursor1.lastBlock);

    expect(node.unknown).toEqual([]);
    expect(new Set(node.calls)).toEqual(
      new Set(["GET /wallet/getnowblock", "POST /wallet/getblockbynum", `GET /v1/contracts/${PROXY}/events`]),
    );
  });

  it("answers as a node does: no block past the head, no such transaction, 404 for anything else", async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${node.url}${path}`, { method: "POST", body: JSON.stringify(body) }).then(async (r) => ({
        status: r.status,
        body: await r.json(),
      }));
    const now = (await post("/wallet/getnowblock", {})).body as { blockID: string; block_header: { raw_data: { number: number } } };
    expect(now.blockID).toMatch(/^[0-9a-f]{64}$/);
    expect(BigInt(`0x${now.blockID.slice(0, 16)}`)).toBe(BigInt(now.block_header.raw_data.number));
    expect((await post("/wallet/getblockbynum", { num: now.block_header.raw_data.number + 1000 })).body).toEqual({});
    expect((await post("/wallet/gettransactionbyid", { value: "ab".repeat(32) })).body).toEqual({});
    expect((await post("/wallet/broadcasttransaction", {})).status).toBe(404);
    expect(node.unknown).toEqual(["POST /wallet/broadcasttransaction"]);
  });
});
