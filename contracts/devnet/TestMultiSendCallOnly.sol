// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice STAND-IN for the Safe's MultiSendCallOnly, for the tests of Safe payers: a Safe runs
/// several calls as one Safe transaction by DELEGATECALLing `multiSend(bytes)` here with the calls
/// packed back to back, each `operation (uint8, must be 0) | to (address, 20 bytes) | value
/// (uint256) | dataLength (uint256) | data` — the Safe's documented MultiSend encoding (selector
/// 0x8d80ff0a), which Duebill's Safe plans give as `metadata.multiSendTransactions`.
/// @dev Test-only, never deployed to a real network. Runs in the caller's context (delegatecall):
/// each call is made by the Safe itself; any failing call reverts the whole transaction.
contract TestMultiSendCallOnly {
  error DelegateCallNotAllowed();
  error Truncated();
  error CallFailed(uint256 index, bytes reason);

  function multiSend(bytes calldata transactions) external payable {
    uint256 i = 0;
    uint256 index = 0;
    while (i < transactions.length) {
      if (transactions.length < i + 85) revert Truncated();
      if (uint8(transactions[i]) != 0) revert DelegateCallNotAllowed();
      address to = address(bytes20(transactions[i + 1:i + 21]));
      uint256 value = uint256(bytes32(transactions[i + 21:i + 53]));
      uint256 dataLength = uint256(bytes32(transactions[i + 53:i + 85]));
      if (transactions.length < i + 85 + dataLength) revert Truncated();
      (bool ok, bytes memory reason) = to.call{value: value}(transactions[i + 85:i + 85 + dataLength]);
      if (!ok) revert CallFailed(index, reason);
      i += 85 + dataLength;
      index++;
    }
  }
}
