import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import { gaslessPlanSchema, gaslessQuerySchema, gaslessResultSchema, gaslessSubmitBodySchema } from "./gasless-schemas";

const tags = ["Secure payments"];
const REFUSED =
  "409 names why a link cannot be paid so: the token has no EIP-3009 (USDT, DAI, BSC's USDC: they need gas), Tron, a payout or " +
  "batch link, a fee to several addresses, the link paid, expired or closed, the relayer or the contract not configured here.";

export const gaslessPlanOp = defineOperation({
  method: "GET",
  path: "/v2/secure-payments/{token}/gasless",
  operationId: "securePaymentGaslessPlan",
  summary: "What a payer signs to pay a link without gas (EIP-3009; Duebill extension)",
  description:
    "For a link in a token with EIP-3009 (native USDC): the typed data of one ReceiveWithAuthorization to Duebill's " +
    "DuebillGaslessPayments contract and the plan it commits to — the request's amount and fee (its fee rule) and the relayer's " +
    "fee — valid for 30 minutes. The payer needs no native token. Sign it with eth_signTypedData_v4 and POST the signature. " +
    REFUSED,
  tags,
  auth: [],
  params: z.object({ token: z.string().max(64) }),
  query: gaslessQuerySchema,
  responses: {
    200: { description: "The plan and its typed data", schema: gaslessPlanSchema },
    ...errorResponses(400, 403, 404, 409, 429, 503),
  },
});

export const gaslessSubmitOp = defineOperation({
  method: "POST",
  path: "/v2/secure-payments/{token}/gasless",
  operationId: "securePaymentGaslessSubmit",
  summary: "Pay a link with the payer's signed authorization; Duebill's relayer sends it (Duebill extension)",
  description:
    "Rebuilds the plan from the link, the salt and validBefore, checks the signature is the wallet's, and relays it once: the " +
    "contract receives the tokens with receiveWithAuthorization and pays payee and fee through the ERC20FeeProxy with the " +
    "request's reference, so detection completes the link like any payment. A second submission before detection records the " +
    "first gets the first's answer (`replayed: true`) and sends nothing; a used, canceled or expired authorization, or a " +
    "signature that is not the wallet's, is refused by the contract rule's name. " +
    REFUSED,
  tags,
  auth: [],
  params: z.object({ token: z.string().max(64) }),
  body: gaslessSubmitBodySchema,
  responses: {
    200: { description: "Relayed and confirmed", schema: gaslessResultSchema },
    ...errorResponses(400, 403, 404, 409, 429, 503),
  },
});
