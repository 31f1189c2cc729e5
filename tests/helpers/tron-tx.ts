/** A signed Tron transaction as TronLink returns it (shape only: the signature is not checked off-node). */
export const TRON_TXID = "7c2f4a9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f5a";
export const USDT_TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

/** An approve call (095ea7b3) to `contractAddress`, signed. */
export function signedTronTx(contractAddress: string) {
  return {
    txID: TRON_TXID,
    raw_data_hex: "0a02abcd",
    signature: ["ab".repeat(65)],
    raw_data: {
      contract: [{ type: "TriggerSmartContract", parameter: { value: { contract_address: contractAddress, data: "095ea7b3" } } }],
      fee_limit: 100_000_000,
    },
  };
}
