// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @notice The devnet's stand-in for a cross-chain bridge (a LI.FI route in production). On the
/// source chain it takes the payer's tokens together with the destination payment's terms; an
/// off-chain relayer (scripts/devnet/bridge-relayer.ts) pays the request on the destination chain
/// through ERC20FeeProxy, with the request's payment reference, from its own liquidity, then
/// records the settlement here (or refunds the payer).
/// @dev Devnet only: the relayer is trusted, there are no liquidity proofs. Quotes expire on chain.
contract DuebillDevnetBridge {
  using SafeERC20 for IERC20;

  /// @notice What the destination must receive: one ERC20FeeProxy payment with this reference.
  struct Destination {
    uint256 chainId;
    address token;
    address payee;
    uint256 amount;
    bytes paymentReference;
    uint256 feeAmount;
    address feeAddress;
  }

  enum State {
    None,
    Deposited,
    Settled,
    Refunded
  }

  struct Deposit {
    address payer;
    address token;
    uint256 amount;
    State state;
  }

  address public immutable relayer;
  uint256 public depositCount;
  mapping(uint256 => Deposit) public deposits;
  /// @notice The destination transaction that paid a deposit (zero until settled).
  mapping(uint256 => bytes32) public settlementOf;

  event Deposited(
    uint256 indexed depositId,
    address indexed payer,
    address indexed token,
    uint256 amount,
    uint256 expiresAt,
    Destination destination
  );
  event Settled(uint256 indexed depositId, bytes32 destinationTxHash);
  event Refunded(uint256 indexed depositId, string reason);

  error QuoteExpired(uint256 expiresAt, uint256 now_);
  error NotRelayer();
  error NotOpen(uint256 depositId);
  error ZeroAmount();

  constructor(address relayer_) {
    relayer = relayer_;
  }

  modifier onlyRelayer() {
    if (msg.sender != relayer) revert NotRelayer();
    _;
  }

  /// @notice Takes `amount` of `token` from the payer for `destination`; reverts once the quote expired.
  function deposit(address token, uint256 amount, uint256 expiresAt, Destination calldata destination) external returns (uint256 depositId) {
    if (block.timestamp > expiresAt) revert QuoteExpired(expiresAt, block.timestamp);
    if (amount == 0 || destination.amount == 0) revert ZeroAmount();
    IERC20(token).safeTransferFrom(msg.sender, address(this), amount);
    depositId = ++depositCount;
    deposits[depositId] = Deposit({payer: msg.sender, token: token, amount: amount, state: State.Deposited});
    emit Deposited(depositId, msg.sender, token, amount, expiresAt, destination);
  }

  /// @notice The relayer paid the destination in `destinationTxHash`; the deposit becomes its liquidity.
  function settle(uint256 depositId, bytes32 destinationTxHash) external onlyRelayer {
    Deposit storage d = deposits[depositId];
    if (d.state != State.Deposited) revert NotOpen(depositId);
    d.state = State.Settled;
    settlementOf[depositId] = destinationTxHash;
    IERC20(d.token).safeTransfer(relayer, d.amount);
    emit Settled(depositId, destinationTxHash);
  }

  /// @notice The relayer could not pay the destination: the payer gets the deposit back.
  function refund(uint256 depositId, string calldata reason) external onlyRelayer {
    Deposit storage d = deposits[depositId];
    if (d.state != State.Deposited) revert NotOpen(depositId);
    d.state = State.Refunded;
    IERC20(d.token).safeTransfer(d.payer, d.amount);
    emit Refunded(depositId, reason);
  }
}
