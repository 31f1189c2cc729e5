import type { Devnet } from "./index";

/** What the devnet is, for the console: addresses, the funded payer's key, the config file. */
export function describeDevnet(devnet: Devnet, configFile: string): string {
  const a = devnet.accounts;
  return [
    `[devnet] anvil up in ${devnet.timings.anvilMs} ms, contracts deployed in ${devnet.timings.deployMs} ms`,
    `  RPC URL        ${devnet.rpcUrl}  (chain id ${devnet.chainId}, standing in for "${devnet.network}")`,
    `  ERC20FeeProxy  ${devnet.contracts.erc20FeeProxy}  (creation block ${devnet.contracts.erc20FeeProxyCreationBlock})`,
    `  Batch          ${devnet.contracts.batchPayments}  (BatchConversionPayments)`,
    `  Recurring      ${devnet.contracts.recurringPayments}  (DuebillRecurringPayments; relayer below, admin = deployer)`,
    `  Deposits       ${devnet.contracts.depositFactory}  (DuebillDepositFactory: returns excess; deposit relayer below)`,
    `  Gasless        ${devnet.contracts.gaslessPayments}  (DuebillGaslessPayments: EIP-3009 pay; signature relayer below)`,
    `  RN deposits    ${devnet.contracts.singleRequestProxyFactory}  (SingleRequestProxyFactory: the fallback where Duebill's is not deployed)`,
    `  Conversion     ${devnet.contracts.erc20ConversionProxy}  (Erc20ConversionProxy; path ${devnet.contracts.chainlinkConversionPath})`,
    `  Price feeds    ${Object.keys(devnet.aggregators).join(", ")} → USD  (change one: npm run devnet -- rate EUR 1.08)`,
    `  USDC (6)       ${devnet.tokens.USDC}  (EIP-3009 and EIP-2612, as Circle's USDC)`,
    `  USDT (6)       ${devnet.tokens.USDT}  (USDT-like: no return values, approve 0 before changing)`,
    `  FAU (18)       ${devnet.tokens.FAU}`,
    `  payer          ${a.payer.address}  key ${a.payer.privateKey}  (1,000,000 of each token + 10,000 ETH)`,
    `  payee          ${a.payee.address}`,
    `  fee recipient  ${a.feeRecipient.address}`,
    `  relayer        ${a.relayer.address}  key ${a.relayer.privateKey}  (funded like the payer)`,
    `  deposit relayer ${a.depositRelayer.address}  (deploys and forwards deposit addresses)`,
    `  signature relayer ${a.signatureRelayer.address}  (submits signed authorizations: gasless pay, escrow, x402)`,
    `  chain config   ${configFile}`,
    "  Move the devnet's clock (recurring payments fall due): npm run devnet -- time +30d",
    "  Anyone may mint test tokens: mint(address,uint256). These keys are public: local use only.",
  ].join("\n");
}
