/**
 * Browser bundle only (next.config.ts `turbopack.resolveAlias`, condition `browser`): what
 * `import … from "viem/actions"` resolves to in client code. Every export of viem's actions is
 * re-exported unchanged, except the asynchronous actions that wagmi's and RainbowKit's hooks
 * reference: those load their implementation on their first call. They are all `async`, so a
 * caller cannot tell the difference, but the connect modal no longer drags viem's whole action
 * graph (calls, multicall, ENS, gas estimation, receipts…) into the JavaScript a payer downloads
 * before the wallet list shows: each action is fetched when a connected wallet first needs it.
 * Names are kept (wagmi's getAction looks a client override up by the function's name).
 * Server code, tests and scripts use viem itself. tests/components/wallet-bundle-shims.test.ts
 * checks the list against viem.
 */
export * from "../../../node_modules/viem/_esm/actions/index.js";

export async function call(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/call.js")).call(client, parameters);
}
export async function estimateFeesPerGas(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/estimateFeesPerGas.js")).estimateFeesPerGas(client, parameters);
}
export async function estimateGas(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/estimateGas.js")).estimateGas(client, parameters);
}
export async function estimateMaxPriorityFeePerGas(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/estimateMaxPriorityFeePerGas.js")).estimateMaxPriorityFeePerGas(
    client,
    parameters,
  );
}
export async function getBalance(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/getBalance.js")).getBalance(client, parameters);
}
export async function getBlock(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/getBlock.js")).getBlock(client, parameters);
}
export async function getBlockNumber(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/getBlockNumber.js")).getBlockNumber(client, parameters);
}
export async function getBlockTransactionCount(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/getBlockTransactionCount.js")).getBlockTransactionCount(
    client,
    parameters,
  );
}
export async function getCallsStatus(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/wallet/getCallsStatus.js")).getCallsStatus(client, parameters);
}
export async function getCapabilities(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/wallet/getCapabilities.js")).getCapabilities(client, parameters);
}
export async function getEnsAddress(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/ens/getEnsAddress.js")).getEnsAddress(client, parameters);
}
export async function getEnsAvatar(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/ens/getEnsAvatar.js")).getEnsAvatar(client, parameters);
}
export async function getEnsName(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/ens/getEnsName.js")).getEnsName(client, parameters);
}
export async function getEnsResolver(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/ens/getEnsResolver.js")).getEnsResolver(client, parameters);
}
export async function getEnsText(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/ens/getEnsText.js")).getEnsText(client, parameters);
}
export async function getFeeHistory(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/getFeeHistory.js")).getFeeHistory(client, parameters);
}
export async function getGasPrice(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/getGasPrice.js")).getGasPrice(client, parameters);
}
export async function getProof(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/getProof.js")).getProof(client, parameters);
}
export async function getStorageAt(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/getStorageAt.js")).getStorageAt(client, parameters);
}
export async function getTransaction(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/getTransaction.js")).getTransaction(client, parameters);
}
export async function getTransactionConfirmations(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/getTransactionConfirmations.js")).getTransactionConfirmations(
    client,
    parameters,
  );
}
export async function getTransactionCount(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/getTransactionCount.js")).getTransactionCount(client, parameters);
}
export async function getTransactionReceipt(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/getTransactionReceipt.js")).getTransactionReceipt(
    client,
    parameters,
  );
}
export async function multicall(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/multicall.js")).multicall(client, parameters);
}
export async function prepareTransactionRequest(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/wallet/prepareTransactionRequest.js")).prepareTransactionRequest(
    client,
    parameters,
  );
}
export async function readContract(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/readContract.js")).readContract(client, parameters);
}
export async function sendCalls(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/wallet/sendCalls.js")).sendCalls(client, parameters);
}
export async function sendCallsSync(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/wallet/sendCallsSync.js")).sendCallsSync(client, parameters);
}
export async function sendTransaction(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/wallet/sendTransaction.js")).sendTransaction(client, parameters);
}
export async function sendTransactionSync(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/wallet/sendTransactionSync.js")).sendTransactionSync(client, parameters);
}
export async function showCallsStatus(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/wallet/showCallsStatus.js")).showCallsStatus(client, parameters);
}
export async function signMessage(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/wallet/signMessage.js")).signMessage(client, parameters);
}
export async function signTypedData(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/wallet/signTypedData.js")).signTypedData(client, parameters);
}
export async function simulateContract(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/simulateContract.js")).simulateContract(client, parameters);
}
export async function verifyMessage(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/verifyMessage.js")).verifyMessage(client, parameters);
}
export async function verifyTypedData(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/verifyTypedData.js")).verifyTypedData(client, parameters);
}
export async function waitForCallsStatus(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/wallet/waitForCallsStatus.js")).waitForCallsStatus(client, parameters);
}
export async function waitForTransactionReceipt(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/public/waitForTransactionReceipt.js")).waitForTransactionReceipt(
    client,
    parameters,
  );
}
export async function watchAsset(client, parameters) {
  return (await import("../../../node_modules/viem/_esm/actions/wallet/watchAsset.js")).watchAsset(client, parameters);
}
