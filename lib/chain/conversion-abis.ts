/**
 * ABI of Request Network's ChainlinkConversionPath (copied as data from @requestnetwork/smart-contracts
 * 0.48.0, artifacts/ChainlinkConversionPath/0.2.1.json, trimmed); the Erc20ConversionProxy ABI is in abis.ts.
 */
/**
 * ChainlinkConversionPath — from artifacts/ChainlinkConversionPath/0.2.1.json, trimmed. A path is a
 * list of currency addresses (fiat: the Request Network currency hash; tokens: their address); each
 * hop needs an aggregator registered as `allAggregators[from][to]`, or `[to][from]` (used in reverse).
 * Fiat hashes have 8 decimals, tokens their ERC-20 decimals. `getRate` returns the rate scaled by
 * `decimals` (a power of ten, 1e18 in 0.2.x), and the oldest `latestTimestamp()` of the hops' aggregators;
 * Erc20ConversionProxy reverts "aggregator rate is outdated" when block.timestamp − that > maxRateTimespan.
 */
export const chainlinkConversionPathAbi = [
  {
    inputs: [
      { internalType: "address", name: "", type: "address" },
      { internalType: "address", name: "", type: "address" },
    ],
    name: "allAggregators",
    outputs: [{ internalType: "address", name: "", type: "address" }],
    stateMutability: "view",
    type: "function",
  },
  {
    inputs: [
      { internalType: "uint256", name: "_amountIn", type: "uint256" },
      { internalType: "address[]", name: "_path", type: "address[]" },
    ],
    name: "getConversion",
    outputs: [
      { internalType: "uint256", name: "result", type: "uint256" },
      { internalType: "uint256", name: "oldestRateTimestamp", type: "uint256" },
    ],
    stateMutability: "view",
    type: "function",
  },
  {
    inputs: [{ internalType: "address[]", name: "_path", type: "address[]" }],
    name: "getRate",
    outputs: [
      { internalType: "uint256", name: "rate", type: "uint256" },
      { internalType: "uint256", name: "oldestRateTimestamp", type: "uint256" },
      { internalType: "uint256", name: "decimals", type: "uint256" },
    ],
    stateMutability: "view",
    type: "function",
  },
  {
    inputs: [
      { internalType: "address", name: "_input", type: "address" },
      { internalType: "address", name: "_output", type: "address" },
      { internalType: "address", name: "_aggregator", type: "address" },
    ],
    name: "updateAggregator",
    outputs: [],
    stateMutability: "nonpayable",
    type: "function",
  },
  {
    inputs: [
      { internalType: "address[]", name: "_inputs", type: "address[]" },
      { internalType: "address[]", name: "_outputs", type: "address[]" },
      { internalType: "address[]", name: "_aggregators", type: "address[]" },
    ],
    name: "updateAggregatorsList",
    outputs: [],
    stateMutability: "nonpayable",
    type: "function",
  },
] as const;
