import { encodeFunctionData, erc20Abi, maxUint256, prepareEncodeFunctionData } from "viem";
import { batchConversionPaymentsAbi, erc20ConversionProxyAbi, erc20FeeProxyAbi } from "@/lib/chain/abis";
import { asEvmAddress, tronToHex } from "@/lib/chain/address";

/**
 * Unsigned transactions handed to the payer's wallet. `value` uses the reference API's
 * BigNumber shape for same-chain payments. On Tron `to` is base58 and `data` is the same
 * ABI encoding with 20-byte addresses (TRC-20 contracts take EVM calldata).
 */
export interface TxValue {
  type: "BigNumber";
  hex: `0x${string}`;
}

export interface UnsignedTx {
  to: string;
  data: `0x${string}`;
  value: TxValue;
}

const ZERO_VALUE: TxValue = { type: "BigNumber", hex: "0x0" };
const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000" as const;

type Chain = "evm" | "tron";

/**
 * Each function's ABI item and selector, resolved once when the module loads: encodeFunctionData
 * given a prepared function skips the ABI lookup and the selector's keccak on every call (same bytes).
 */
const APPROVE = prepareEncodeFunctionData({ abi: erc20Abi, functionName: "approve" });
const FEE_PROXY_PAY = prepareEncodeFunctionData({ abi: erc20FeeProxyAbi, functionName: "transferFromWithReferenceAndFee" });
const CONVERSION_PAY = prepareEncodeFunctionData({ abi: erc20ConversionProxyAbi, functionName: "transferFromWithReferenceAndFee" });
const BATCH_PAY = prepareEncodeFunctionData({ abi: batchConversionPaymentsAbi, functionName: "batchPayments" });

/** An address as the contract sees it: EVM hex as is, Tron base58 as its 20-byte hex. */
function abiAddress(chain: Chain, address: string): `0x${string}` {
  return chain === "tron" ? tronToHex(address) : asEvmAddress(address);
}

export function approveTx(chain: Chain, token: string, spender: string, amount: bigint): UnsignedTx {
  const data = encodeFunctionData({
    ...APPROVE,
    args: [abiAddress(chain, spender), amount > maxUint256 ? maxUint256 : amount],
  });
  return { to: token, data, value: ZERO_VALUE };
}

export interface FeeProxyPayment {
  proxy: string;
  token: string;
  to: string;
  amount: bigint;
  paymentReference: `0x${string}`;
  feeAmount: bigint;
  feeAddress: string | null;
}

/** ERC20FeeProxy.transferFromWithReferenceAndFee (0xc219a14d). */
export function feeProxyPayTx(chain: Chain, p: FeeProxyPayment): UnsignedTx {
  const data = encodeFunctionData({
    ...FEE_PROXY_PAY,
    args: [
      abiAddress(chain, p.token),
      abiAddress(chain, p.to),
      p.amount,
      p.paymentReference,
      p.feeAmount,
      p.feeAddress ? abiAddress(chain, p.feeAddress) : ZERO_ADDRESS,
    ],
  });
  return { to: p.proxy, data, value: ZERO_VALUE };
}

export interface ConversionProxyPayment {
  proxy: string;
  to: string;
  /** Invoice-currency amount at the path's decimals (8 for fiat). */
  requestAmount: bigint;
  path: readonly string[];
  paymentReference: `0x${string}`;
  feeAmount: bigint;
  feeAddress: string | null;
  /** Most of the token the proxy may pull (amount + fee, converted). */
  maxToSpend: bigint;
  /** Seconds; the proxy reverts when the path's oldest rate is older (0 = any age). */
  maxRateTimespan: bigint;
}

/** Erc20ConversionProxy.transferFromWithReferenceAndFee (0x3af2c012); EVM only. */
export function conversionPayTx(p: ConversionProxyPayment): UnsignedTx {
  const data = encodeFunctionData({
    ...CONVERSION_PAY,
    args: [
      asEvmAddress(p.to),
      p.requestAmount,
      p.path.map(asEvmAddress),
      p.paymentReference,
      p.feeAmount,
      asEvmAddress(p.feeAddress ?? ZERO_ADDRESS),
      p.maxToSpend,
      p.maxRateTimespan,
    ],
  });
  return { to: p.proxy, data, value: ZERO_VALUE };
}

/** BatchConversionPayments payment network ID of ERC-20 payments without conversion. */
export const BATCH_ERC20_NO_CONVERSION = 2n;

export interface BatchItem {
  token: string;
  to: string;
  amount: bigint;
  paymentReference: `0x${string}`;
  feeAmount: bigint;
}

/** BatchConversionPayments.batchPayments (0x92cddb91) with one ERC-20 no-conversion group. */
export function batchPayTx(batchContract: string, items: readonly BatchItem[], feeAddress: string | null): UnsignedTx {
  const data = encodeFunctionData({
    ...BATCH_PAY,
    args: [
      [
        {
          paymentNetworkId: BATCH_ERC20_NO_CONVERSION,
          requestDetails: items.map((i) => ({
            recipient: asEvmAddress(i.to),
            requestAmount: i.amount,
            path: [asEvmAddress(i.token)],
            paymentReference: i.paymentReference,
            feeAmount: i.feeAmount,
            maxToSpend: 0n,
            maxRateTimespan: 0n,
          })),
        },
      ],
      [],
      asEvmAddress(feeAddress ?? ZERO_ADDRESS),
    ],
  });
  return { to: batchContract, data, value: ZERO_VALUE };
}
