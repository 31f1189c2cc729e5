import type { NetworkId } from "@/lib/chain/networks";

/**
 * Stablecoins (and the Sepolia test token) per network, from docs/spec/chain-data.md.
 * Tables are keyed by (network, address), never by address alone: FAU on Sepolia has the
 * same address as ERC20FeeProxy on mainnet.
 */
export interface Token {
  readonly network: NetworkId;
  readonly symbol: string;
  readonly name: string;
  readonly address: string;
  readonly decimals: number;
  /** USDT0 is a payment alias of USDT: it can be paid with, never received into. */
  readonly paymentAliasOf?: string;
  /** USDT-style tokens revert approve(x) from a non-zero allowance: reset to 0 first. */
  readonly approveResetRequired?: boolean;
  /** Dollar-pegged: its amount is its USD value (used by fee plans and routing). */
  readonly usdPegged: boolean;
  /**
   * Signature payments (lib/relayer, docs/guides/signature-payments.md): which authorizations the token's
   * contract accepts. Absent = neither (USDT, DAI's pre-2612 permit, BSC's Binance-Peg USDC, TRC-20s):
   * such a token is paid by transaction only. Circle's FiatToken v2 (native USDC) has both, under the
   * EIP-712 domain {name: the token's name(), version: "2"}.
   */
  readonly authorizations?: TokenAuthorizations;
}

export interface TokenAuthorizations {
  /** EIP-3009 transferWithAuthorization / receiveWithAuthorization / cancelAuthorization. */
  readonly eip3009: boolean;
  /** EIP-2612 permit. */
  readonly eip2612: boolean;
  /** The EIP-712 domain's version (the name is read from the token: name()). */
  readonly domainVersion: string;
}

/** Circle's FiatToken v2.x (native USDC on every EVM network here but BSC). */
const FIAT_TOKEN_V2: TokenAuthorizations = { eip3009: true, eip2612: true, domainVersion: "2" };

const USDC = "USD Coin";
const USDT = "Tether USD";
const USDT0 = "USDT0";

export const TOKENS: readonly Token[] = [
  // Ethereum
  {
    network: "mainnet",
    symbol: "USDC",
    name: USDC,
    address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
    decimals: 6,
    usdPegged: true,
    authorizations: FIAT_TOKEN_V2,
  },
  {
    network: "mainnet",
    symbol: "USDT",
    name: USDT,
    address: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
    decimals: 6,
    usdPegged: true,
    approveResetRequired: true,
  },
  {
    network: "mainnet",
    symbol: "DAI",
    name: "Dai Stablecoin",
    address: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
    decimals: 18,
    usdPegged: true,
  },
  // Arbitrum One
  {
    network: "arbitrum-one",
    symbol: "USDC",
    name: USDC,
    address: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
    decimals: 6,
    usdPegged: true,
    authorizations: FIAT_TOKEN_V2,
  },
  {
    network: "arbitrum-one",
    symbol: "USDT",
    name: USDT,
    address: "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9",
    decimals: 6,
    usdPegged: true,
  },
  {
    network: "arbitrum-one",
    symbol: "USDT0",
    name: USDT0,
    address: "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9",
    decimals: 6,
    usdPegged: true,
    paymentAliasOf: "USDT",
  },
  // Optimism (native USDC, not USDC.e 0x7F5c764cBc14f9669B88837ca1490cCa17c31607)
  {
    network: "optimism",
    symbol: "USDC",
    name: USDC,
    address: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85",
    decimals: 6,
    usdPegged: true,
    authorizations: FIAT_TOKEN_V2,
  },
  { network: "optimism", symbol: "USDT", name: USDT, address: "0x94b008aA00579c1307B0EF2c499aD98a8ce58e58", decimals: 6, usdPegged: true },
  {
    network: "optimism",
    symbol: "USDT0",
    name: USDT0,
    address: "0x01bFF41798a0BcF287b996046Ca68b395DbC1071",
    decimals: 6,
    usdPegged: true,
    paymentAliasOf: "USDT",
  },
  // Base
  {
    network: "base",
    symbol: "USDC",
    name: USDC,
    address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    decimals: 6,
    usdPegged: true,
    authorizations: FIAT_TOKEN_V2,
  },
  { network: "base", symbol: "USDT", name: USDT, address: "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2", decimals: 6, usdPegged: true },
  // Polygon (native USDC, not USDC.e 0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174)
  {
    network: "matic",
    symbol: "USDC",
    name: USDC,
    address: "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
    decimals: 6,
    usdPegged: true,
    authorizations: FIAT_TOKEN_V2,
  },
  { network: "matic", symbol: "USDT", name: USDT, address: "0xc2132D05D31c914a87C6611C10748AEb04B58e8F", decimals: 6, usdPegged: true },
  {
    network: "matic",
    symbol: "USDT0",
    name: USDT0,
    address: "0xc2132D05D31c914a87C6611C10748AEb04B58e8F",
    decimals: 6,
    usdPegged: true,
    paymentAliasOf: "USDT",
  },
  // BNB Smart Chain: both stablecoins have 18 decimals here
  { network: "bsc", symbol: "USDC", name: USDC, address: "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d", decimals: 18, usdPegged: true },
  { network: "bsc", symbol: "USDT", name: USDT, address: "0x55d398326f99059fF775485246999027B3197955", decimals: 18, usdPegged: true },
  // Tron (TRC-20, base58 addresses). A max-allowance approval is customary for Tron USDT.
  { network: "tron", symbol: "USDC", name: USDC, address: "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8", decimals: 6, usdPegged: true },
  { network: "tron", symbol: "USDT", name: USDT, address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", decimals: 6, usdPegged: true },
  // Sepolia
  {
    network: "sepolia",
    symbol: "FAU",
    name: "Faucet Token",
    address: "0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C",
    decimals: 18,
    usdPegged: true,
  },
  {
    network: "sepolia",
    symbol: "USDC",
    name: USDC,
    address: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238",
    decimals: 6,
    usdPegged: true,
    authorizations: FIAT_TOKEN_V2,
  },
  {
    network: "sepolia",
    symbol: "USDT",
    name: USDT,
    address: "0xF046b3CA5ae2879c6bAcC4D42fAF363eE8379F78",
    decimals: 6,
    usdPegged: true,
    approveResetRequired: true,
  },
];

/** Symbols that can pay a fiat-denominated (conversion) request. */
export const CONVERSION_PAYMENT_SYMBOLS: readonly string[] = ["USDC", "USDT", "DAI", "FAU"];

export function tokenCurrencyId(token: Pick<Token, "symbol" | "network">): string {
  return `${token.symbol}-${token.network}`;
}
