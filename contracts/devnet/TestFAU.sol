// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./TestERC20.sol";

/// @notice Stands in for Request Network's FAU faucet token on Sepolia: standard ERC-20, 18 decimals.
contract TestFAU is TestERC20 {
  constructor() TestERC20("Faucet Token", "FAU", 18) {}
}
