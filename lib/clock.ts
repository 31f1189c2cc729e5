/** The time source of everything that expires (sessions, challenges). Tests inject a fake clock. */
let source: () => number = Date.now;

export function nowMs(): number {
  return source();
}

export function now(): Date {
  return new Date(source());
}

export function setClockForTests(fn: (() => number) | null): void {
  source = fn ?? Date.now;
}
