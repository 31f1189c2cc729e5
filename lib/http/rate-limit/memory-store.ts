import type { RatePolicy } from "@/lib/http/rate-limit/policy";
import { type BucketState, decide, type RateLimitDecision, type RateLimitStore, step } from "@/lib/http/rate-limit/token-bucket";

/**
 * Per-process store (one instance, or no REDIS_URL). O(1) per check and bounded:
 *
 * - The Map is kept in (approximately) least-recently-checked order: a checked entry is moved to
 *   the end (delete + re-insert), at most once per REORDER_MS, because the move costs more than
 *   the rest of a check (~150 ns) and 1 s granularity is plenty for picking an eviction victim.
 * - Each check of a new key first drops up to SWEEP expired entries from the front, so idle keys
 *   disappear at least as fast as new ones arrive (an expired state equals no state).
 * - When the map is still full, the front (least recently used) entry is evicted, expired or
 *   not. Under that pressure (maxEntries distinct (credential, IP) pairs active at once) an idle
 *   pair may lose its bucket or block early; pairs that keep sending, blocked attackers
 *   included, are recently used and stay. Size maxEntries for the expected number of clients.
 */
const SWEEP = 2;
const REORDER_MS = 1_000;

interface Entry {
  state: BucketState;
  movedAt: number;
}

export class MemoryStore implements RateLimitStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = 100_000) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new Error("maxEntries must be a positive integer");
  }

  get size(): number {
    return this.entries.size;
  }

  async check(key: string, policy: RatePolicy, nowMs: number): Promise<RateLimitDecision> {
    return this.checkSync(key, policy, nowMs);
  }

  /** The synchronous core, for callers that want to skip the promise. */
  checkSync(key: string, policy: RatePolicy, nowMs: number): RateLimitDecision {
    const entry = this.entries.get(key);
    const r = step(entry?.state, policy, nowMs);
    if (entry === undefined) {
      this.makeRoom(nowMs);
      this.entries.set(key, { state: r.state, movedAt: nowMs });
    } else {
      entry.state = r.state;
      if (nowMs - entry.movedAt >= REORDER_MS) {
        entry.movedAt = nowMs;
        this.entries.delete(key);
        this.entries.set(key, entry);
      }
    }
    return decide(r.allowed, r.blocked, r.state.tokens, r.state.ts, policy, nowMs);
  }

  private makeRoom(nowMs: number): void {
    let swept = 0;
    for (const [k, e] of this.entries) {
      if (swept >= SWEEP || e.state.expiresAt > nowMs) break;
      this.entries.delete(k);
      swept++;
    }
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}
