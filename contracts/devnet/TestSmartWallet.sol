// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @notice Minimal ERC-1271 smart account for tests: one owner EOA signs for it and drives it.
/// @dev Test-only (never deployed to a real network): no replay domain of its own, no upgrades.
contract TestSmartWallet is IERC1271 {
  address public immutable owner;

  error NotOwner();

  constructor(address owner_) {
    owner = owner_;
  }

  /// @notice Valid when the owner signed `hash` itself (no prefix), e.g. an EIP-712 digest via signTypedData.
  function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
    (address recovered, ECDSA.RecoverError err, ) = ECDSA.tryRecoverCalldata(hash, signature);
    return err == ECDSA.RecoverError.NoError && recovered == owner ? IERC1271.isValidSignature.selector : bytes4(0xffffffff);
  }

  /// @notice Lets the owner act as the wallet (e.g. approve a spender); bubbles up the target's revert.
  function execute(address target, bytes calldata data) external returns (bytes memory result) {
    if (msg.sender != owner) revert NotOwner();
    bool ok;
    (ok, result) = target.call(data);
    if (!ok) {
      assembly ("memory-safe") {
        revert(add(result, 0x20), mload(result))
      }
    }
  }
}
