import { resetChainConfig } from "@/lib/chain/config";
import { resetCurrencyRegistry } from "@/lib/currencies/registry";
import { reloadEnv } from "@/lib/env";
import { type Devnet, devAccount, startDevnet } from "@/scripts/devnet";
import { BRIDGE_RELAYER_INDEX, type BridgeDevnet, startBridgeDevnet } from "@/scripts/devnet/bridge";

/** Starts a devnet on a free port and points the app's "sepolia" at it. */
export async function useDevnet(): Promise<Devnet> {
  const devnet = await startDevnet({ port: 0 });
  process.env.CHAIN_CONFIG = JSON.stringify(devnet.chainConfig());
  process.env.RELAYER_PRIVATE_KEY = devnet.accounts.relayer.privateKey;
  process.env.DEPOSIT_RELAYER_PRIVATE_KEY = devnet.accounts.depositRelayer.privateKey;
  process.env.SIGNATURE_RELAYER_PRIVATE_KEY = devnet.accounts.signatureRelayer.privateKey;
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
  delete process.env.SIGNATURE_RELAYER_PRIVATE_KEY;
  reloadEnv();
  resetChainConfig();
  resetCurrencyRegistry();
}

/** Starts the cross-chain source chain beside `devnet` (scripts/devnet/bridge.ts) and adds it to the app's chain config. */
export async function useBridgeDevnet(devnet: Devnet): Promise<BridgeDevnet> {
  const source = await startBridgeDevnet(devnet, { port: 0, relayerPrivateKey: devAccount(BRIDGE_RELAYER_INDEX).privateKey });
  process.env.CHAIN_CONFIG = JSON.stringify({ ...devnet.chainConfig(), ...source.chainConfig() });
  reloadEnv();
  resetChainConfig();
  resetCurrencyRegistry();
  return source;
}
