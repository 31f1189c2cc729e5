// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice Behaves like mainnet USDT (TetherToken at 0xdAC17F958D2ee523a2206206994597C13D831ec7)
///         where integrations usually break:
///         - transfer, transferFrom and approve return NOTHING (callers expecting a bool revert
///           unless they use a "safe" wrapper);
///         - approve reverts when changing a non-zero allowance to another non-zero value
///           (approve 0 first);
///         - an allowance of type(uint256).max is never decreased.
///         6 decimals. Anyone may mint: test token for a throwaway local chain.
/// @dev Failures revert with a reason string, where mainnet USDT (Solidity 0.4) fails with an
///      empty revert or an invalid opcode; the ERC20FeeProxy bytecode used here reverts on both.
contract TestUSDT {
  string public constant name = "Test Tether USD";
  string public constant symbol = "USDT";
  uint8 public constant decimals = 6;
  uint256 public totalSupply;
  mapping(address => uint256) public balanceOf;
  mapping(address => mapping(address => uint256)) public allowance;

  event Transfer(address indexed from, address indexed to, uint256 value);
  event Approval(address indexed owner, address indexed spender, uint256 value);

  function mint(address to, uint256 value) external {
    totalSupply += value;
    balanceOf[to] += value;
    emit Transfer(address(0), to, value);
  }

  function approve(address spender, uint256 value) external {
    // Same rule as TetherToken.approve: set to 0 before setting a new non-zero value.
    require(value == 0 || allowance[msg.sender][spender] == 0, "USDT: reset allowance to 0 first");
    allowance[msg.sender][spender] = value;
    emit Approval(msg.sender, spender, value);
  }

  function transfer(address to, uint256 value) external {
    _move(msg.sender, to, value);
  }

  function transferFrom(address from, address to, uint256 value) external {
    uint256 allowed = allowance[from][msg.sender];
    require(allowed >= value, "USDT: insufficient allowance");
    if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
    _move(from, to, value);
  }

  function _move(address from, address to, uint256 value) internal {
    require(balanceOf[from] >= value, "USDT: insufficient balance");
    balanceOf[from] -= value;
    balanceOf[to] += value;
    emit Transfer(from, to, value);
  }
}
