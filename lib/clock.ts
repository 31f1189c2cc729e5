/**
 * The one clock of the domain: everything that expires or is stamped (sessions, challenges,
 * links, keys, deliveries) reads it. Tests inject a fake one with setClock(fn) and restore
 * the real one with setClock(null). Durations and budgets use performance.now() instead.
 */
let source: () => number = Date.now;

export function nowMs(): number {
  return source();
}

export function now(): Date {
  return new Date(source());
}

export function setClock(fn: (() => number) | null): void {
  source = fn ?? Date.now;
}
