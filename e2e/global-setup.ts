import type { E2eState } from "./support/api";
import { startAppServer } from "./support/app-server";

/** Starts the stack once per run; the returned function tears it down after the last journey. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const server = await startAppServer();
  const { devnet, bridge } = server;
  const state: E2eState = {
    baseUrl: server.baseUrl,
    databaseUrl: server.databaseUrl,
    demo: server.demo,
    devnet: {
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      payer: devnet.accounts.payer,
      deniedPayer: devnet.accounts.relayer,
      payee: devnet.accounts.payee.address,
      tokens: devnet.tokens,
      erc20FeeProxy: devnet.contracts.erc20FeeProxy,
    },
    bridge: { rpcUrl: bridge.rpcUrl, chainId: bridge.chainId, name: "Arbitrum One" },
  };
  // Workers are started after global setup and inherit its environment.
  process.env.E2E_STATE = JSON.stringify(state);
  return () => server.stop();
}
