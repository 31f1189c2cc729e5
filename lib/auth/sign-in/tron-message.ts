import { keccak256, recoverAddress, toBytes } from "viem";
import { hexToTron } from "@/lib/chain/address";

/**
 * TRON message signing, version 2 (TronLink's signMessageV2, tronweb's verifyMessageV2):
 * keccak256("\x19TRON Signed Message:\n" + byteLength(message) + message), secp256k1; the
 * signer's address is base58check(0x41 ‖ last 20 bytes of keccak256(pubkey)).
 */
export function tronMessageHash(message: string): `0x${string}` {
  const bytes = toBytes(message);
  const prefix = toBytes(`\x19TRON Signed Message:\n${bytes.length}`);
  const all = new Uint8Array(prefix.length + bytes.length);
  all.set(prefix);
  all.set(bytes, prefix.length);
  return keccak256(all);
}

export async function recoverTronSigner(message: string, signature: `0x${string}`): Promise<string> {
  const evm = await recoverAddress({ hash: tronMessageHash(message), signature });
  return hexToTron(evm);
}
