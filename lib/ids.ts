import { randomBytes } from "node:crypto";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** ULID: 48-bit millisecond time + 80 random bits, Crockford base32, sortable by creation. */
export function ulid(now: number = Date.now()): string {
  let time = "";
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = "";
  for (let i = 0; i < 16; i++) rand += CROCKFORD[(bytes[i] ?? 0) % 32];
  return time + rand;
}

/** A secret or token: `bytes` of randomness, base64url (URL- and header-safe). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

export const idPrefix = {
  account: "acc_",
  apiKey: "key_",
  apiKeySecret: "dbk_",
  clientId: "cli_",
  orchestratorKey: "okey_",
  orchestratorKeySecret: "orc_",
} as const;

export function prefixedId(prefix: string): string {
  return `${prefix}${ulid().toLowerCase()}`;
}
