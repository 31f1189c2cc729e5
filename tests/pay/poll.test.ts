import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { latestOnly, pollUntil } from "@/components/pay/lib/poll";

describe("pollUntil (useLinkSettled's loop)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks once per interval, retries after a failure, and resolves with the first value that is done", async () => {
    const answers: (string | Error)[] = ["pending", new Error("offline"), "pending", "completed"];
    const load = vi.fn(async () => {
      const next = answers.shift()!;
      if (next instanceof Error) throw next;
      return next;
    });
    const controller = new AbortController();
    const settled = vi.fn();
    void pollUntil(load, (s) => s !== "pending", { intervalMs: 1_500, signal: controller.signal }).then(settled);

    expect(load).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_499);
    expect(load).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_500 * 2);
    expect(load).toHaveBeenCalledTimes(3);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_500);
    expect(load).toHaveBeenCalledTimes(4);
    expect(settled).toHaveBeenCalledWith("completed");
    await vi.advanceTimersByTimeAsync(10_000);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it("stops when aborted: no further calls, and the promise never settles", async () => {
    const load = vi.fn(async () => "pending");
    const controller = new AbortController();
    const settled = vi.fn();
    void pollUntil(load, () => false, { intervalMs: 1_000, signal: controller.signal }).then(settled, settled);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(load).toHaveBeenCalledTimes(2);
    controller.abort();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(load).toHaveBeenCalledTimes(2);
    expect(settled).not.toHaveBeenCalled();
  });

  it("passes the signal to each call and drops an answer that arrives after the abort", async () => {
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    const settled = vi.fn();
    void pollUntil(
      async (signal) => {
        signals.push(signal);
        controller.abort();
        return "completed";
      },
      () => true,
      { intervalMs: 10, signal: controller.signal },
    ).then(settled);
    await vi.advanceTimersByTimeAsync(100);
    expect(signals).toEqual([controller.signal]);
    expect(settled).not.toHaveBeenCalled();
  });
});

describe("latestOnly (usePaymentPlan's guard against stale plans)", () => {
  it("only the latest call is current; invalidate() makes every earlier call stale", () => {
    const latest = latestOnly();
    const first = latest.next();
    expect(first()).toBe(true);
    const second = latest.next();
    expect(first()).toBe(false);
    expect(second()).toBe(true);
    latest.invalidate();
    expect(second()).toBe(false);
  });
});
