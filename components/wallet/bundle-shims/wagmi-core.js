/**
 * Browser bundle only (next.config.ts `turbopack.resolveAlias`, condition `browser`): what
 * `import … from "@wagmi/core"` resolves to in client code. Everything is @wagmi/core's own,
 * except `getPublicClient`/`watchPublicClient`: wagmi decorates the client with viem's
 * `publicActions`, an object holding every public action (simulation, multicall, ENS, SIWE
 * verification, signature recovery…), and RainbowKit's provider calls `usePublicClient` on
 * mount, so the whole set would load before the connect modal can open. Here they return the
 * config's client undecorated: the one caller on our pages (RainbowKit's transaction store) and
 * our own code pass the client to viem's action functions (`waitForTransactionReceipt(client, …)`),
 * which work on any client. Client code must not call `publicClient.someAction()` methods.
 */
import { getClient } from "../../../node_modules/@wagmi/core/dist/esm/exports/index.js";

export * from "../../../node_modules/@wagmi/core/dist/esm/exports/index.js";

export function getPublicClient(config, parameters = {}) {
  return getClient(config, parameters);
}

export function watchPublicClient(config, parameters) {
  return config.subscribe(() => getClient(config), parameters.onChange, {
    equalityFn: (a, b) => a?.uid === b?.uid,
  });
}
