/**
 * ABIs of the Request Network contracts Duebill talks to, copied as data from the artifacts of
 * @requestnetwork/smart-contracts 0.48.0 (a devDependency: its entry point needs an undeclared
 * `ethers`, so nothing here imports it) and trimmed to what the app uses. ERC-20 itself: viem's
 * `erc20Abi`. Selectors are checked in tests/chain/devnet.test.ts against docs/spec/chain-data.md.
 * `artifacts/` below = node_modules/@requestnetwork/smart-contracts/dist/src/lib/artifacts.
 */

/**
 * ERC20FeeProxy — from artifacts/ERC20FeeProxy/0.1.0.json (the only ABI version shipped; the
 * deployed 0.2.0 contracts have the same payment interface). Pay: transferFromWithReferenceAndFee
 * (0xc219a14d). Event: TransferWithReferenceAndFee (topic0 0x9f16cbcc…a2b6); `paymentReference` is
 * indexed `bytes`, so the log carries keccak256(reference bytes), not the reference itself.
 */
export const erc20FeeProxyAbi = [
  {
    constant: false,
    inputs: [
      { internalType: "address", name: "_tokenAddress", type: "address" },
      { internalType: "address", name: "_to", type: "address" },
      { internalType: "uint256", name: "_amount", type: "uint256" },
      { internalType: "bytes", name: "_paymentReference", type: "bytes" },
      { internalType: "uint256", name: "_feeAmount", type: "uint256" },
      { internalType: "address", name: "_feeAddress", type: "address" },
    ],
    name: "transferFromWithReferenceAndFee",
    outputs: [],
    payable: false,
    stateMutability: "nonpayable",
    type: "function",
  },
  {
    anonymous: false,
    inputs: [
      { indexed: false, internalType: "address", name: "tokenAddress", type: "address" },
      { indexed: false, internalType: "address", name: "to", type: "address" },
      { indexed: false, internalType: "uint256", name: "amount", type: "uint256" },
      { indexed: true, internalType: "bytes", name: "paymentReference", type: "bytes" },
      { indexed: false, internalType: "uint256", name: "feeAmount", type: "uint256" },
      { indexed: false, internalType: "address", name: "feeAddress", type: "address" },
    ],
    name: "TransferWithReferenceAndFee",
    type: "event",
  },
] as const;

/**
 * BatchConversionPayments — from artifacts/BatchConversionPayments/0.1.0.json, trimmed.
 * batchPayments (0x92cddb91) takes MetaDetail[] grouped by paymentNetworkId: 0 = ERC-20 with
 * conversion, 1 = ERC-20 single token, 2 = ERC-20 multi-token, 3 = native, 4 = native with conversion.
 * For ERC-20 without conversion, `path` is [token]; maxToSpend/maxRateTimespan are 0. The payer
 * approves the batch contract (not the fee proxy) for the sum of amounts + fees (+ batch fee).
 */
export const batchConversionPaymentsAbi = [
  {
    inputs: [
      {
        components: [
          { internalType: "uint256", name: "paymentNetworkId", type: "uint256" },
          {
            components: [
              { internalType: "address", name: "recipient", type: "address" },
              { internalType: "uint256", name: "requestAmount", type: "uint256" },
              { internalType: "address[]", name: "path", type: "address[]" },
              { internalType: "bytes", name: "paymentReference", type: "bytes" },
              { internalType: "uint256", name: "feeAmount", type: "uint256" },
              { internalType: "uint256", name: "maxToSpend", type: "uint256" },
              { internalType: "uint256", name: "maxRateTimespan", type: "uint256" },
            ],
            internalType: "struct BatchNoConversionPayments.RequestDetail[]",
            name: "requestDetails",
            type: "tuple[]",
          },
        ],
        internalType: "struct BatchConversionPayments.MetaDetail[]",
        name: "metaDetails",
        type: "tuple[]",
      },
      { internalType: "address[][]", name: "pathsToUSD", type: "address[][]" },
      { internalType: "address", name: "feeAddress", type: "address" },
    ],
    name: "batchPayments",
    outputs: [],
    stateMutability: "payable",
    type: "function",
  },
  {
    inputs: [
      {
        components: [
          { internalType: "address", name: "recipient", type: "address" },
          { internalType: "uint256", name: "requestAmount", type: "uint256" },
          { internalType: "address[]", name: "path", type: "address[]" },
          { internalType: "bytes", name: "paymentReference", type: "bytes" },
          { internalType: "uint256", name: "feeAmount", type: "uint256" },
          { internalType: "uint256", name: "maxToSpend", type: "uint256" },
          { internalType: "uint256", name: "maxRateTimespan", type: "uint256" },
        ],
        internalType: "struct BatchNoConversionPayments.RequestDetail[]",
        name: "requestDetails",
        type: "tuple[]",
      },
      { internalType: "address[][]", name: "pathsToUSD", type: "address[][]" },
      { internalType: "address", name: "feeAddress", type: "address" },
    ],
    name: "batchERC20Payments",
    outputs: [{ internalType: "uint256", name: "", type: "uint256" }],
    stateMutability: "nonpayable",
    type: "function",
  },
  {
    inputs: [
      {
        components: [
          { internalType: "address", name: "recipient", type: "address" },
          { internalType: "uint256", name: "requestAmount", type: "uint256" },
          { internalType: "address[]", name: "path", type: "address[]" },
          { internalType: "bytes", name: "paymentReference", type: "bytes" },
          { internalType: "uint256", name: "feeAmount", type: "uint256" },
          { internalType: "uint256", name: "maxToSpend", type: "uint256" },
          { internalType: "uint256", name: "maxRateTimespan", type: "uint256" },
        ],
        internalType: "struct BatchNoConversionPayments.RequestDetail[]",
        name: "requestDetails",
        type: "tuple[]",
      },
      { internalType: "address[][]", name: "pathsToUSD", type: "address[][]" },
      { internalType: "address", name: "feeAddress", type: "address" },
    ],
    name: "batchMultiERC20Payments",
    outputs: [{ internalType: "uint256", name: "", type: "uint256" }],
    stateMutability: "nonpayable",
    type: "function",
  },
  {
    inputs: [],
    name: "batchFee",
    outputs: [{ internalType: "uint16", name: "", type: "uint16" }],
    stateMutability: "view",
    type: "function",
  },
] as const;

/**
 * Erc20ConversionProxy — from artifacts/Erc20ConversionProxy/0.1.0.json (0.1.1 and 0.1.2 only add
 * owner/admin functions; the payment function and events are identical). Pay (0x3af2c012) with
 * a fiat request amount (8 decimals) and a Chainlink path. It delegatecalls ERC20FeeProxy, so both
 * events are emitted from the conversion proxy's own address.
 */
export const erc20ConversionProxyAbi = [
  {
    constant: false,
    inputs: [
      { internalType: "address", name: "_to", type: "address" },
      { internalType: "uint256", name: "_requestAmount", type: "uint256" },
      { internalType: "address[]", name: "_path", type: "address[]" },
      { internalType: "bytes", name: "_paymentReference", type: "bytes" },
      { internalType: "uint256", name: "_feeAmount", type: "uint256" },
      { internalType: "address", name: "_feeAddress", type: "address" },
      { internalType: "uint256", name: "_maxToSpend", type: "uint256" },
      { internalType: "uint256", name: "_maxRateTimespan", type: "uint256" },
    ],
    name: "transferFromWithReferenceAndFee",
    outputs: [],
    payable: false,
    stateMutability: "nonpayable",
    type: "function",
  },
  {
    anonymous: false,
    inputs: [
      { indexed: false, internalType: "uint256", name: "amount", type: "uint256" },
      { indexed: false, internalType: "address", name: "currency", type: "address" },
      { indexed: true, internalType: "bytes", name: "paymentReference", type: "bytes" },
      { indexed: false, internalType: "uint256", name: "feeAmount", type: "uint256" },
      { indexed: false, internalType: "uint256", name: "maxRateTimespan", type: "uint256" },
    ],
    name: "TransferWithConversionAndReference",
    type: "event",
  },
  {
    anonymous: false,
    inputs: [
      { indexed: false, internalType: "address", name: "tokenAddress", type: "address" },
      { indexed: false, internalType: "address", name: "to", type: "address" },
      { indexed: false, internalType: "uint256", name: "amount", type: "uint256" },
      { indexed: true, internalType: "bytes", name: "paymentReference", type: "bytes" },
      { indexed: false, internalType: "uint256", name: "feeAmount", type: "uint256" },
      { indexed: false, internalType: "address", name: "feeAddress", type: "address" },
    ],
    name: "TransferWithReferenceAndFee",
    type: "event",
  },
] as const;

/**
 * ERC20BatchPayments (Tron batch) — from artifacts/BatchPayments/0.1.0.json, trimmed to
 * batchERC20PaymentsWithReference(address,address[],uint256[],bytes[],uint256[],address) (0xc6e6d98b).
 * One token per call; the payer approves the batch contract for sum(amounts) + sum(fees) + batch fee
 * (the contract approves the fee proxy itself; checked with the EVM BatchPayments bytecode).
 */
export const erc20BatchPaymentsAbi = [
  {
    inputs: [
      { internalType: "address", name: "_tokenAddress", type: "address" },
      { internalType: "address[]", name: "_recipients", type: "address[]" },
      { internalType: "uint256[]", name: "_amounts", type: "uint256[]" },
      { internalType: "bytes[]", name: "_paymentReferences", type: "bytes[]" },
      { internalType: "uint256[]", name: "_feeAmounts", type: "uint256[]" },
      { internalType: "address", name: "_feeAddress", type: "address" },
    ],
    name: "batchERC20PaymentsWithReference",
    outputs: [],
    stateMutability: "nonpayable",
    type: "function",
  },
] as const;

/**
 * Request Network's SingleRequestProxyFactory 0.1.0 (the part Duebill calls): one
 * ERC20SingleRequestProxy per request, a deposit address that forwards through the ERC20FeeProxy.
 */
export const singleRequestProxyFactoryAbi = [
  {
    type: "function",
    name: "createERC20SingleRequestProxy",
    stateMutability: "nonpayable",
    inputs: [
      { name: "_payee", type: "address" },
      { name: "_tokenAddress", type: "address" },
      { name: "_paymentReference", type: "bytes" },
      { name: "_feeAddress", type: "address" },
      { name: "_feeAmount", type: "uint256" },
    ],
    outputs: [{ name: "", type: "address" }],
  },
  {
    type: "event",
    name: "ERC20SingleRequestProxyCreated",
    anonymous: false,
    inputs: [
      { name: "proxyAddress", type: "address", indexed: false },
      { name: "payee", type: "address", indexed: false },
      { name: "tokenAddress", type: "address", indexed: false },
      { name: "paymentReference", type: "bytes", indexed: true },
      { name: "feeAddress", type: "address", indexed: false },
      { name: "feeAmount", type: "uint256", indexed: false },
      { name: "feeProxyUsed", type: "address", indexed: false },
    ],
  },
] as const;

/** ERC20SingleRequestProxy: anyone may trigger the forward of its whole token balance. */
export const erc20SingleRequestProxyAbi = [
  { type: "function", name: "triggerERC20Payment", stateMutability: "nonpayable", inputs: [], outputs: [] },
  { type: "function", name: "payee", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "address" }] },
  { type: "function", name: "tokenAddress", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "address" }] },
  { type: "function", name: "paymentReference", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "bytes" }] },
  { type: "function", name: "feeAmount", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "uint256" }] },
] as const;
