import { resetChainConfig } from "@/lib/chain/config";
import { resetCurrencyRegistry } from "@/lib/currencies/registry";
import { reloadEnv } from "@/lib/env";
import { type Devnet, startDevnet } from "@/scripts/devnet";

/** Starts a devnet on a free port and points the app's "sepolia" at it. */
export async function useDevnet(): Promise<Devnet> {
  const devnet = await startDevnet({ port: 0 });
  process.env.CHAIN_CONFIG = JSON.stringify(devnet.chainConfig());
  process.env.RELAYER_PRIVATE_KEY = devnet.accounts.relayer.privateKey;
  process.env.DEPOSIT_RELAYER_PRIVATE_KEY = devnet.accounts.depositRelayer.privateKey;
  reloadEnv();
  resetChainConfig();
  resetCurrencyRegistry();
  return devnet;
}

export async function stopDevnet(devnet: Devnet | undefined): Promise<void> {
  await devnet?.stop();
  delete process.env.CHAIN_CONFIG;
  delete process.env.RELAYER_PRIVATE_KEY;
  delete process.env.DEPOSIT_RELAYER_PRIVATE_KEY;
  reloadEnv();
  resetChainConfig();
  resetCurrencyRegistry();
}
