import { z } from "zod";
import { defineOperation } from "@/lib/http/operation";
import { errorResponses } from "@/lib/openapi/common";
import {
  conversionRoutesParamsSchema,
  conversionRoutesQuerySchema,
  conversionRoutesResponseSchema,
  currencySchema,
  listCurrenciesQuerySchema,
} from "@/lib/operations/currencies-schemas";

export const listCurrenciesOp = defineOperation({
  method: "GET",
  path: "/v2/currencies",
  operationId: "listCurrencies",
  summary: "List currencies",
  description:
    "The reference's currency catalog (`@requestnetwork/currency`: over 500 tokens and native currencies, with its IDs) and the tokens of the 8 supported networks, filtered by `network`, `symbol` or `id`. With `id` or `firstOnly=true` the answer is one currency object instead of an array. Fiat currencies are found by `id` (ISO 4217: USD, EUR, CNY, GBP and JPY invoice here; the others are listed only). Payments, destinations and links take only the tokens of the 8 networks (USDC, USDT, USDT0, DAI, FAU); another listed currency is a 400 naming the field.",
  tags: ["Currencies"],
  auth: ["apiKey", "clientId"],
  query: listCurrenciesQuerySchema,
  responses: {
    200: {
      description: "Currencies (array), or one currency with `id` / `firstOnly=true`",
      schema: z.union([z.array(currencySchema), currencySchema]),
    },
    ...errorResponses(400, 401, 403, 404, 429),
  },
});

export const conversionRoutesOp = defineOperation({
  method: "GET",
  path: "/v2/currencies/{currencyId}/conversion-routes",
  operationId: "getConversionRoutes",
  summary: "Payment currencies for an invoice currency",
  description:
    "The tokens an invoice in `currencyId` (a fiat code such as USD, or a token currency ID) can be paid with, optionally limited to `network` or `networks=a,b`. USD: dollar stablecoins 1:1. EUR, GBP, CNY, JPY: tokens the network's ChainlinkConversionPath can convert to (read on chain where an RPC is configured, listed in `verifiedOnChain`; the configured list elsewhere); on Tron, which has no conversion proxy, USDT and USDC at a quoted rate read on the rate network's ChainlinkConversionPath. A currency the catalog lists but Duebill does not invoice has no route.",
  tags: ["Currencies"],
  auth: ["apiKey", "clientId"],
  params: conversionRoutesParamsSchema,
  query: conversionRoutesQuerySchema,
  responses: {
    200: { description: "Conversion routes", schema: conversionRoutesResponseSchema },
    ...errorResponses(400, 401, 403, 404, 429),
  },
});
