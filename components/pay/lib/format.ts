/** The pay page's links: only http(s) URLs reach an href (redirects, explorers, merchants' support pages). */

/** Only http(s) URLs become links: a stored `javascript:` URL must never reach an href. */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}

/** Explorer link of a transaction (the network's prefix + hash). */
export function explorerTxUrl(prefix: string, hash: string): string | null {
  return safeHttpUrl(`${prefix}${hash}`);
}
