import { ESCROW_EXAMPLES } from "@/lib/openapi/escrow-examples";
import { GASLESS_EXAMPLES } from "@/lib/openapi/gasless-examples";
import { X402_EXAMPLES } from "@/lib/openapi/x402-examples";

/** The examples of the signature payments (#31): gasless pay on a link, commerce escrow, x402. */
export const SIGNATURE_PAYMENT_EXAMPLES = { ...GASLESS_EXAMPLES, ...ESCROW_EXAMPLES, ...X402_EXAMPLES };
