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
