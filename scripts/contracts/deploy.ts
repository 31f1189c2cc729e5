/**
 * `npm run contracts:deploy -- --network base --relayer 0x… [--admin 0x…] [--rpc URL]
 *  [--key-env DEPLOYER_PRIVATE_KEY] [--fee-proxy 0x…]`
 * Deploys Duebill's recurring-payment contract to a real network and prints its address with the
 * chain-config snippet to set. RPC: --rpc or RPC_URL_<NETWORK> (RPC_URL_BASE, RPC_URL_ARBITRUM_ONE…).
 * Key: the environment variable named by --key-env (default DEPLOYER_PRIVATE_KEY). The fee proxy
 * defaults to the network's ERC20FeeProxy (lib/chain/contracts.ts); the admin to the deployer.
 */
import { runDeployCommand } from "./deploy-recurring";

runDeployCommand(process.argv.slice(2), process.env).catch((err: unknown) => {
  console.error(`[contracts] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
