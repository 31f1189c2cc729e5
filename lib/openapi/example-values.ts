/**
 * Placeholder values for the documentation's generated examples (lib/openapi/examples.ts),
 * used where a schema carries no `.meta({ example })`: first by string format or pattern, then by
 * the property's name, so an example reads like a real request rather than `"string"`.
 */

export const EVM_ADDRESS = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
export const EVM_ADDRESS_2 = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const TX_HASH = `0x${"9f2c".repeat(16)}`;
const DATE_TIME = "2026-01-15T09:30:00.000Z";

const BY_FORMAT: Record<string, string> = {
  email: "jane@example.com",
  "date-time": DATE_TIME,
  date: "2026-01-15",
  time: "09:30:00",
  uuid: "3b241101-e2bb-4255-8caf-4136c566a962",
  uri: "https://example.com/webhooks/duebill",
  url: "https://example.com/webhooks/duebill",
  ipv4: "203.0.113.7",
};

/** Known patterns of the operations' schemas → a value that matches. */
const BY_PATTERN: readonly (readonly [RegExp, string])[] = [
  [/^\^0x\(\?:\[0-9a-fA-F\]\{2\}\)\+\$$/, `0x${"ab".repeat(65)}`],
  [/^\^cli_/, "cli_3kTq9vXw2bLm"],
  [/^\^\[a-fA-F0-9\]\{64\}\$$/, "7c2f4a9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f5a"],
  [/^\^\[a-fA-F0-9\]\+\$$/, "0a02d4a02208c1c3e5b7d9f1"],
  [/^\^#\[0-9a-fA-F\]\{6\}\$$/, "#4F46E5"],
  [/^\^\\d\{1,18\}/, "2.5"],
  [/@/, BY_FORMAT.email!],
  [/\[0-9a-fA-F\]\{8\}-/, BY_FORMAT.uuid!],
];

/** Property name (lower-cased) → value. Checked in order; the first match wins. */
const BY_NAME: readonly (readonly [RegExp, unknown])[] = [
  [/^(txhash|hash|transactionhash)$/, TX_HASH],
  [/^tronaddress$/, "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8"],
  [/^payer(wallet|address)?$|^wallet$|^from$|^walletaddress$/, EVM_ADDRESS_2],
  [/address$|^payee$|^to$|recipient|^owner$/, EVM_ADDRESS],
  [/signature$/, `0x${"ab".repeat(65)}`],
  [/^(nonce)$/, "0x5f3a9c1e"],
  [/^paymentreference$/, "0xb3581f0b0f74cc61"],
  [/percentage$/, "2.5"],
  [/amount|price|balance/, "25.50"],
  [/^(invoicecurrency)$/, "USD"],
  [/^(paymentcurrency|currency|currencyid)$/, "USDC-base"],
  [/^symbol$/, "USDC"],
  [/^data$/, "0xa9059cbb"],
  [/^hex$/, "0x00"],
  [/^eventtype$/, "payment.confirmed"],
  [/^securepaymenturl$/, "https://duebill.example.com/pay/sp_7Hq2Lx9KfW3m"],
  [/^logourl$/, "https://example.com/logo.png"],
  [/webhook|^url$/, BY_FORMAT.uri],
  [/^(network|chain)$/, "base"],
  [/^(email)$/, BY_FORMAT.email],
  [/^(password)$/, "correct-horse-battery-staple"],
  [/url$|uri$/, "https://example.com/thanks"],
  [/(at|date)$/, DATE_TIME],
  [/^firstname$/, "Jane"],
  [/^lastname$/, "Doe"],
  [/^country$/, "US"],
  [/^city$/, "Lisbon"],
  [/^street$/, "1 Main Street"],
  [/^postalcode$/, "1100-148"],
  [/^state$/, "Lisboa"],
  [/^(reference|invoicenumber)$/, "INV-1001"],
  [/name$/, "Acme Inc."],
  [/^(description|memo|note)$/, "Design work, January"],
  [/domains?$|^origin$/, "https://shop.example.com"],
  [/^(requestid)$/, `01${"e2".repeat(32)}`],
  [/^(clientid)$/, "cli_3kTq9vXw2bLm"],
  [/secret$/, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
  [/^token$/, "sp_7Hq2Lx9KfW3m"],
  [/token$/, "tok_4f1b2c3d4e5f6a7b"],
  [/id$/, "01JH3Q8Z6X9V2M4N7P5R8T1W3Y"],
  [/message$/, "Sign in to Duebill"],
];

export function stringByFormat(format: unknown, pattern: unknown): string | undefined {
  if (typeof format === "string" && BY_FORMAT[format]) return BY_FORMAT[format];
  if (typeof pattern === "string") for (const [re, value] of BY_PATTERN) if (re.test(pattern)) return value;
  return undefined;
}

export function valueByName(name: string | undefined, type: "string" | "number" | "integer"): unknown {
  if (!name) return undefined;
  const key = name.toLowerCase();
  for (const [re, value] of BY_NAME) {
    if (!re.test(key)) continue;
    if (type === "string") return typeof value === "string" ? value : undefined;
    return undefined;
  }
  return undefined;
}
