import type { NetworkId } from "@/lib/chain/networks";

/** The deployments per network: addresses of the Request Network contracts (docs/spec/chain-data.md) and of Duebill's own. */
export interface NetworkDeployments {
  readonly erc20FeeProxy: string;
  readonly erc20FeeProxyCreationBlock: number;
  readonly erc20ConversionProxy: string | null;
  readonly chainlinkConversionPath: string | null;
  /** BatchConversionPayments on EVM; ERC20BatchPayments on Tron. */
  readonly batchPayments: string;
  readonly recurringPaymentProxy: string | null;
  /** Duebill's own DuebillRecurringPayments (contracts/src/): none committed, set by configuration (the devnet sets it). */
  readonly recurringPayments?: string | null;
  /**
   * Request Network's SingleRequestProxyFactory 0.1.0 (its artifact's deployments): per-request deposit
   * addresses (lib/deposits). Unset → no deposit addresses on that network.
   */
  readonly singleRequestProxyFactory?: string | null;
  /**
   * Duebill's own DuebillDepositFactory (contracts/src/): deposit addresses that can send an excess, an
   * underpaid or a late payment back (lib/deposits). None committed, set by configuration (the devnet sets
   * it); where it is set, new deposit addresses are Duebill's, elsewhere Request Network's (no returns).
   */
  readonly depositFactory?: string | null;
  /** Duebill's own DuebillGaslessPayments (contracts/src/): EIP-3009 gasless pay (lib/gasless). None committed, set by configuration (the devnet sets it). */
  readonly gaslessPayments?: string | null;
  /** Duebill's own DuebillCommerceEscrow (contracts/src/): authorize/capture payments (lib/commerce). Set by configuration. */
  readonly commerceEscrow?: string | null;
  /** The devnet's bridge on a cross-chain source chain (contracts/devnet/DuebillDevnetBridge.sol); never on a real network. */
  readonly devnetBridge?: string | null;
  readonly devnetBridgeCreationBlock?: number;
}

export const DEPLOYMENTS: Readonly<Record<NetworkId, NetworkDeployments>> = {
  mainnet: {
    erc20FeeProxy: "0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C",
    erc20FeeProxyCreationBlock: 10774767,
    erc20ConversionProxy: "0x1550A8C4F4E5afC67Ea07e8ac590fdcAdB4bBfb1",
    chainlinkConversionPath: "0xC5519f3fcECC8EC85caaF8836563dEe9a00080f9",
    batchPayments: "0x3cF63891928B8CeebB81C95426600a18cd59C03f",
    recurringPaymentProxy: "0xF0Bebbc99E26Ba7F651E7Ff14e0D3029B0228880",
    singleRequestProxyFactory: "0xD5933C74414ce80D9d7082cc89FBAdcfF4751fAF",
  },
  "arbitrum-one": {
    erc20FeeProxy: "0x0DfbEe143b42B41eFC5A6F87bFD1fFC78c2f0aC9",
    erc20FeeProxyCreationBlock: 5309741,
    erc20ConversionProxy: "0xA5186dec7dC1ec85B42A3cd2Dc8289e248530B07",
    chainlinkConversionPath: "0x0818Ad7016138f0A40DFAe30F64a923c2A8F61bA",
    batchPayments: "0x3cF63891928B8CeebB81C95426600a18cd59C03f",
    recurringPaymentProxy: "0xC335f956e91faa1DC103f9B54f7009c470dc6EEf",
    singleRequestProxyFactory: "0x4D417AA04DBb207201a794E5B7381B3cde815281",
  },
  optimism: {
    erc20FeeProxy: "0x399F5EE127ce7432E4921a61b8CF52b0af52cbfE",
    erc20FeeProxyCreationBlock: 34638633,
    erc20ConversionProxy: "0x1550A8C4F4E5afC67Ea07e8ac590fdcAdB4bBfb1",
    chainlinkConversionPath: "0x0818Ad7016138f0A40DFAe30F64a923c2A8F61bA",
    batchPayments: "0x3cF63891928B8CeebB81C95426600a18cd59C03f",
    recurringPaymentProxy: null,
    singleRequestProxyFactory: "0xf8cACE7EE4c03Eb4f225434B0709527938D365b4",
  },
  base: {
    erc20FeeProxy: "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814",
    erc20FeeProxyCreationBlock: 10827274,
    erc20ConversionProxy: "0x8296D56321cf207925a7804E5A8E3F579838e6Ad",
    chainlinkConversionPath: "0x3dF89c727eaDF67eeD7b4d09EC4F2b41f8Dec2ca",
    batchPayments: "0x1aF3f22685AcdDc788B3730ed415912d8f654420",
    recurringPaymentProxy: "0xd2c3392e3e70F4CE033Cb39CC80B414aDdD64fFa",
    singleRequestProxyFactory: "0xAdc0001eA67Ab36D5321612c6b500572704fFF20",
  },
  matic: {
    erc20FeeProxy: "0x0DfbEe143b42B41eFC5A6F87bFD1fFC78c2f0aC9",
    erc20FeeProxyCreationBlock: 17427742,
    erc20ConversionProxy: "0xf0f49873C50765239F6f9534Ba13c4fe16eD5f2E",
    chainlinkConversionPath: "0x0818Ad7016138f0A40DFAe30F64a923c2A8F61bA",
    batchPayments: "0x3cF63891928B8CeebB81C95426600a18cd59C03f",
    recurringPaymentProxy: "0xD3BD678f219439c2bcf602Beb07e601a91b8Cd3d",
    singleRequestProxyFactory: "0x4D417AA04DBb207201a794E5B7381B3cde815281",
  },
  bsc: {
    erc20FeeProxy: "0x0DfbEe143b42B41eFC5A6F87bFD1fFC78c2f0aC9",
    erc20FeeProxyCreationBlock: 11540173,
    erc20ConversionProxy: "0xbbd9c5D112343A4Aa2bc194245760CaeeaF118Be",
    chainlinkConversionPath: "0x0818Ad7016138f0A40DFAe30F64a923c2A8F61bA",
    batchPayments: "0x3cF63891928B8CeebB81C95426600a18cd59C03f",
    recurringPaymentProxy: "0xbb0f20890E9e405f9D4c2e707590525ccAA3De16",
    singleRequestProxyFactory: "0x4D417AA04DBb207201a794E5B7381B3cde815281",
  },
  tron: {
    erc20FeeProxy: "TCUDPYnS9dH3WvFEaE7wN7vnDa51J4R4fd",
    erc20FeeProxyCreationBlock: 79216121,
    erc20ConversionProxy: null,
    chainlinkConversionPath: null,
    batchPayments: "TRZbXXuLd3HW5utzVysA3rpLgU7sVBrd1D",
    recurringPaymentProxy: null,
  },
  sepolia: {
    erc20FeeProxy: "0x399F5EE127ce7432E4921a61b8CF52b0af52cbfE",
    erc20FeeProxyCreationBlock: 4733364,
    erc20ConversionProxy: "0xaD61121DAfAAe495095Cd466022b519Cb7503a4E",
    chainlinkConversionPath: "0x7c285b9F2dA5E2c10feA25C00Ce1aCB107F85475",
    batchPayments: "0x67818703c92580c0e106e401F253E8A410A66f8B",
    recurringPaymentProxy: "0xb6C7448458d8616B00eb8f93883d0081Fa2aDec9",
    singleRequestProxyFactory: "0xf8cACE7EE4c03Eb4f225434B0709527938D365b4",
  },
};
