// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

/// @notice STAND-IN for a Safe (Gnosis Safe) multisig, for the tests of Safe payers on secure
/// payment links. The real Safe contracts cannot be installed here (their npm package pulls
/// ethers v5 over the project's ethers v6), so this contract reproduces the parts of a Safe that
/// a payer's flow touches, with the Safe's own ABI and hashes:
/// - owners and a threshold; `getOwners`, `getThreshold`, `nonce`;
/// - `getTransactionHash`: the Safe's EIP-712 `SafeTx` hash (domain `EIP712Domain(uint256
///   chainId,address verifyingContract)`), i.e. the `safeTxHash` the owners sign and a Safe
///   client records;
/// - `execTransaction` with the Safe's signature: `threshold` owner signatures over that hash
///   (65 bytes each, owners in ascending order; v 27/28 signs the hash itself, v 31/32 the
///   eth_sign-prefixed hash), CALL (operation 0) or DELEGATECALL (operation 1, e.g. into a
///   MultiSendCallOnly to run several calls as one Safe transaction);
/// - ERC-1271 `isValidSignature(bytes32, bytes)`: valid when `threshold` owners signed the hash.
/// @dev Test-only, never deployed to a real network. Not supported (refused): gas refunds
/// (gasPrice, gasToken, refundReceiver must be zero), contract signatures (v 0) and pre-approved
/// hashes (v 1), modules, guards, owner management, upgrades.
contract TestMultisigWallet is IERC1271 {
  /// keccak256("EIP712Domain(uint256 chainId,address verifyingContract)"), as the Safe (v1.3+).
  bytes32 private constant DOMAIN_SEPARATOR_TYPEHASH = 0x47e79534a245952e8b16893a336b85a3d9ea9fa8c573f3d803afb92a79469218;
  /// keccak256("SafeTx(address to,uint256 value,bytes data,uint8 operation,uint256 safeTxGas,uint256 baseGas,uint256 gasPrice,address gasToken,address refundReceiver,uint256 nonce)").
  bytes32 private constant SAFE_TX_TYPEHASH = 0xbb8310d486368db6bd6f849402fdd73ad53d316b5a4b2644ad6efe0f941286d8;

  address[] private owners;
  mapping(address => bool) public isOwner;
  uint256 private threshold;
  uint256 public nonce;

  event ExecutionSuccess(bytes32 indexed txHash, uint256 payment);

  error InvalidSetup();
  error RefundsNotSupported();
  error InvalidOperation();
  error SignaturesTooShort();
  error InvalidSignature();
  error CallFailed(bytes reason);

  constructor(address[] memory owners_, uint256 threshold_) {
    if (threshold_ == 0 || threshold_ > owners_.length) revert InvalidSetup();
    for (uint256 i = 0; i < owners_.length; i++) {
      address o = owners_[i];
      if (o == address(0) || isOwner[o]) revert InvalidSetup();
      isOwner[o] = true;
    }
    owners = owners_;
    threshold = threshold_;
  }

  receive() external payable {}

  function getOwners() external view returns (address[] memory) {
    return owners;
  }

  function getThreshold() external view returns (uint256) {
    return threshold;
  }

  function domainSeparator() public view returns (bytes32) {
    return keccak256(abi.encode(DOMAIN_SEPARATOR_TYPEHASH, block.chainid, address(this)));
  }

  /// @notice The Safe's transaction hash (what the owners sign), with the Safe's parameters.
  function getTransactionHash(
    address to,
    uint256 value,
    bytes calldata data,
    uint8 operation,
    uint256 safeTxGas,
    uint256 baseGas,
    uint256 gasPrice,
    address gasToken,
    address refundReceiver,
    uint256 _nonce
  ) public view returns (bytes32) {
    bytes32 safeTxStruct = keccak256(
      abi.encode(SAFE_TX_TYPEHASH, to, value, keccak256(data), operation, safeTxGas, baseGas, gasPrice, gasToken, refundReceiver, _nonce)
    );
    return keccak256(abi.encodePacked(bytes1(0x19), bytes1(0x01), domainSeparator(), safeTxStruct));
  }

  /// @notice Runs one Safe transaction once `threshold` owners signed its hash at the current nonce.
  /// Reverts when the call reverts (as a Safe does with safeTxGas and gasPrice zero).
  function execTransaction(
    address to,
    uint256 value,
    bytes calldata data,
    uint8 operation,
    uint256 safeTxGas,
    uint256 baseGas,
    uint256 gasPrice,
    address gasToken,
    address payable refundReceiver,
    bytes calldata signatures
  ) external payable returns (bool success) {
    if (gasPrice != 0 || gasToken != address(0) || refundReceiver != address(0)) revert RefundsNotSupported();
    if (operation > 1) revert InvalidOperation();
    bytes32 txHash = getTransactionHash(to, value, data, operation, safeTxGas, baseGas, gasPrice, gasToken, refundReceiver, nonce);
    nonce++;
    checkSignatures(txHash, signatures);
    bytes memory result;
    if (operation == 0) (success, result) = to.call{value: value}(data);
    else (success, result) = to.delegatecall(data);
    if (!success) revert CallFailed(result);
    emit ExecutionSuccess(txHash, 0);
  }

  /// @notice Reverts unless `signatures` holds `threshold` distinct owners' signatures of `dataHash`, owners ascending.
  function checkSignatures(bytes32 dataHash, bytes calldata signatures) public view {
    if (signatures.length < threshold * 65) revert SignaturesTooShort();
    address last = address(0);
    for (uint256 i = 0; i < threshold; i++) {
      bytes32 r = bytes32(signatures[i * 65:i * 65 + 32]);
      bytes32 s = bytes32(signatures[i * 65 + 32:i * 65 + 64]);
      uint8 v = uint8(signatures[i * 65 + 64]);
      address signer;
      if (v == 27 || v == 28) signer = ECDSA.recover(dataHash, v, r, s);
      else if (v == 31 || v == 32) signer = ECDSA.recover(MessageHashUtils.toEthSignedMessageHash(dataHash), v - 4, r, s);
      else revert InvalidSignature();
      if (signer <= last || !isOwner[signer]) revert InvalidSignature();
      last = signer;
    }
  }

  /// @notice ERC-1271: the wallet "signed" `hash` when `threshold` owners did (same format as execTransaction).
  function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
    try this.checkSignatures(hash, signature) {
      return IERC1271.isValidSignature.selector;
    } catch {
      return bytes4(0xffffffff);
    }
  }
}
