// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice A settable Chainlink-style price feed for the local devnet.
/// @dev Request Network's ChainlinkConversionPath (0.2.x bytecode) reads `decimals()`,
/// `latestAnswer()` and `latestTimestamp()` (the legacy AggregatorInterface); `latestRoundData()`
/// is the AggregatorV3Interface view of the same answer, for tools that read that instead.
/// Only the deployer may set the answer: `npm run devnet -- rate EUR 1.08` calls setAnswer.
contract DevnetAggregator {
  uint8 public immutable decimals;
  string public description;
  address public immutable owner;
  int256 public latestAnswer;
  uint256 public latestTimestamp;
  uint80 public latestRound;

  event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

  constructor(uint8 decimals_, string memory description_, int256 answer_) {
    decimals = decimals_;
    description = description_;
    owner = msg.sender;
    _set(answer_, block.timestamp);
  }

  /// @param updatedAt_ the feed's update time; 0 means now (the block's time). An old one makes the rate stale.
  function setAnswer(int256 answer_, uint256 updatedAt_) external {
    require(msg.sender == owner, "only owner");
    require(answer_ > 0, "answer must be positive");
    require(updatedAt_ <= block.timestamp, "updatedAt in the future");
    _set(answer_, updatedAt_ == 0 ? block.timestamp : updatedAt_);
  }

  function latestRoundData()
    external
    view
    returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
  {
    return (latestRound, latestAnswer, latestTimestamp, latestTimestamp, latestRound);
  }

  function _set(int256 answer_, uint256 updatedAt_) private {
    latestRound += 1;
    latestAnswer = answer_;
    latestTimestamp = updatedAt_;
    emit AnswerUpdated(answer_, latestRound, updatedAt_);
  }
}
