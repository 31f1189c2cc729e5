// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./TestERC20.sol";

/// @notice Test-only (never deployed by the devnet): an EIP-3009-shaped token whose receiveWithAuthorization
/// delivers one base unit less than authorized, as a fee-on-transfer token would. It checks no signature: it
/// exists to prove DuebillGaslessPayments refuses a short delivery (BalanceMismatch), tests/gasless/contract.test.ts.
contract TestShortToken is TestERC20 {
  constructor() TestERC20("Short Token", "SHORT", 6) {}

  function authorizationState(address, bytes32) external pure returns (bool) {
    return false;
  }

  // solhint-disable-next-line func-name-mixedcase
  function DOMAIN_SEPARATOR() external view returns (bytes32) {
    return keccak256(
      abi.encode(
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
        keccak256(bytes(name)),
        keccak256(bytes("2")),
        block.chainid,
        address(this)
      )
    );
  }

  function receiveWithAuthorization(address from, address to, uint256 value, uint256, uint256, bytes32, uint8, bytes32, bytes32) external {
    require(to == msg.sender, "caller must be the payee");
    _move(from, to, value - 1);
  }
}
