/**
 * Polls `load` every `intervalMs` (first call after one interval) until `done(value)` holds,
 * then resolves with that value. A failed call is tried again at the next tick. Stops quietly
 * when `signal` aborts (the promise then never resolves): the caller has moved on.
 */
export function pollUntil<T>(
  load: (signal: AbortSignal) => Promise<T>,
  done: (value: T) => boolean,
  { intervalMs, signal }: { intervalMs: number; signal: AbortSignal },
): Promise<T> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const value = await load(signal);
        if (signal.aborted) return;
        if (done(value)) {
          resolve(value);
          return;
        }
      } catch {
        if (signal.aborted) return;
      }
      timer = setTimeout(tick, intervalMs);
    };
    signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
    timer = setTimeout(tick, intervalMs);
  });
}

/**
 * Tags calls so that only the latest one's answer is applied: each `next()` (and `invalidate()`)
 * makes the answers of earlier calls stale. The plan hook uses it when the wallet or source changes mid-request.
 */
export function latestOnly() {
  let current = 0;
  return {
    /** Starts a call; the returned function says whether it is still the latest. */
    next(): () => boolean {
      const id = ++current;
      return () => id === current;
    },
    invalidate(): void {
      current++;
    },
  };
}
