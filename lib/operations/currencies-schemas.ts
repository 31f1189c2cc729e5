import { z } from "zod";

export const currencySchema = z
  .object({
    id: z.string().meta({ example: "USDC-base" }),
    name: z.string(),
    symbol: z.string(),
    decimals: z.number().int(),
    address: z.string().nullable().meta({ description: "Token contract (EVM hex or Tron base58); null for fiat and native currencies." }),
    network: z.string().nullable().meta({ description: "Network ID; null for fiat." }),
    type: z.enum(["ERC20", "ERC777", "ETH", "BTC", "ISO4217"]).meta({
      description:
        "The reference's currency types: ERC20 and ERC777 tokens, native currencies (ETH, which covers every chain's own coin, and BTC), ISO4217 fiat",
    }),
    hash: z.string().meta({ description: "Request Network currency hash" }),
    chainId: z.number().int().nullable().meta({ description: "EVM chain ID (Tron: 728126428); null for fiat, Bitcoin and NEAR" }),
  })
  .meta({ id: "Currency" });

const booleanString = z.enum(["true", "false"], { message: "firstOnly must be 'true' or 'false' if provided" });

export const listCurrenciesQuerySchema = z.object({
  network: z
    .string()
    .max(64)
    .optional()
    .meta({ example: "base", description: "A network of the list: the 8 payable networks or another of the catalog's" }),
  symbol: z.string().max(32).optional().meta({ example: "USDC" }),
  id: z.string().max(96).optional().meta({ example: "USDC-base" }),
  firstOnly: booleanString.optional().meta({ description: "Return the first match only, as an object" }),
});

export const conversionRoutesParamsSchema = z.object({
  currencyId: z.string().min(1).max(96).meta({ example: "USD" }),
});

export const conversionRoutesQuerySchema = z.object({
  network: z.string().max(64).optional(),
  networks: z.string().max(600).optional().meta({ description: "Comma-separated network IDs", example: "base,matic" }),
});

export const conversionRoutesResponseSchema = z
  .object({
    currencyId: z.string(),
    network: z.string().nullable().optional(),
    networks: z.array(z.string()).optional(),
    conversionRoutes: z.array(currencySchema),
    verifiedOnChain: z.array(z.string()).optional().meta({
      description:
        "EUR, GBP, CNY, JPY: networks whose routes were read from their ChainlinkConversionPath price feeds (Tron: its rate network's); routes of the other networks come from the configuration (no RPC configured)",
    }),
  })
  .meta({ id: "ConversionRoutes" });

export type CurrencyDto = z.infer<typeof currencySchema>;
