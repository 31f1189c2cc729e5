// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./TestERC20.sol";

/// @notice Stands in for USDC on the devnet: standard ERC-20 with 6 decimals.
contract TestUSDC is TestERC20 {
  constructor() TestERC20("Test USD Coin", "USDC", 6) {}
}
