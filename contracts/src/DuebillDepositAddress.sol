// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

/// @notice The payment entry point of Request Network's ERC20FeeProxy (selector 0xc219a14d).
interface IERC20FeeProxyForDeposits {
  function transferFromWithReferenceAndFee(
    address tokenAddress,
    address to,
    uint256 amount,
    bytes calldata paymentReference,
    uint256 feeAmount,
    address feeAddress
  ) external;
}

/**
 * @title DuebillDepositAddress
 * @notice One request's deposit address: a payer sends the token here with a plain transfer (from any
 * wallet or exchange) and Duebill's deposit relayer (the operator) moves it on. Unlike Request Network's
 * ERC20SingleRequestProxy, which can only send its whole balance to the payee, it can also send money
 * back to the payer — an overpayment's excess, or the whole of an underpaid or late payment — without
 * ever letting the operator take what the payee is owed:
 *
 * - Every token that leaves goes through the ERC20FeeProxy, so every move is a referenced transfer that
 *   detection records: to the payee under the request's payment reference (a payment), or back under a
 *   refund reference (a refund, never under the payment reference, never to the payee).
 * - Before `closesAt` (the link's expiry, fixed at creation) nothing goes back until the payee has
 *   received `amount` and the fee address `feeAmount` through this contract: only the excess can leave.
 * - After `closesAt` the operator may send back what the address still holds (an underpaid or late
 *   payment; the link no longer takes it).
 * - The payee may always forward anything the address holds to itself (`forward`): if Duebill
 *   disappears, nothing is stuck. Other tokens sent here by mistake go to the payee (`recoverToken`),
 *   as Request Network's rescueFunds does.
 *
 * What the operator is trusted with (it cannot be checked on chain: a token transfer does not tell its
 * receiver who sent it): the address it sends a return to. It is the depositor Duebill read from the
 * token's Transfer logs; a compromised operator could send the excess, or after `closesAt` an unforwarded
 * balance, elsewhere — never the payee's amount before `closesAt`. docs/operations/security.md.
 */
contract DuebillDepositAddress is ReentrancyGuardTransient {
  using SafeERC20 for IERC20;

  error NotOperator();
  error NotOperatorOrPayee();
  error PayeeNotPaid();
  error BadReturn();
  error InsufficientBalance();
  error BalanceMismatch();
  error WrongToken();

  /// @notice `amount` to the payee and `fee` to the fee address, through the fee proxy under the payment reference.
  event Forwarded(uint256 amount, uint256 fee);
  /// @notice `amount` sent back to `to` through the fee proxy under `refundReference` (no fee).
  event Returned(address indexed to, uint256 amount, bytes8 refundReference);

  IERC20FeeProxyForDeposits public immutable erc20FeeProxy;
  /// @notice Duebill's deposit relayer: the only one who may send money back.
  address public immutable operator;
  address public immutable payee;
  IERC20 public immutable token;
  /// @notice The request's Request Network payment reference (8 bytes).
  bytes8 public immutable paymentReference;
  address public immutable feeAddress;
  /// @notice What the fee address is owed out of the deposits (base units).
  uint256 public immutable feeAmount;
  /// @notice What the payee is owed out of the deposits (base units): the request's amount when the address was made.
  uint256 public immutable amount;
  /// @notice Unix seconds: the link's expiry. From then on, what the address holds may be sent back.
  uint64 public immutable closesAt;

  /// @notice Forwarded to the payee so far (may exceed `amount` when an excess was forwarded too).
  uint256 public paid;
  /// @notice Forwarded to the fee address so far (at most `feeAmount`).
  uint256 public feePaid;
  /// @notice Sent back so far.
  uint256 public returned;

  constructor(
    address erc20FeeProxy_,
    address operator_,
    address payee_,
    address token_,
    bytes8 paymentReference_,
    address feeAddress_,
    uint256 feeAmount_,
    uint256 amount_,
    uint64 closesAt_
  ) {
    erc20FeeProxy = IERC20FeeProxyForDeposits(erc20FeeProxy_);
    operator = operator_;
    payee = payee_;
    token = IERC20(token_);
    paymentReference = paymentReference_;
    feeAddress = feeAddress_;
    feeAmount = feeAmount_;
    amount = amount_;
    closesAt = closesAt_;
  }

  /// @notice What the payee is still owed out of the deposits.
  function owed() public view returns (uint256) {
    return paid >= amount ? 0 : amount - paid;
  }

  /// @notice What the fee address is still owed out of the deposits.
  function feeDue() public view returns (uint256) {
    return feePaid >= feeAmount ? 0 : feeAmount - feePaid;
  }

  /**
   * @notice Sends `toPayee` to the payee and, out of what remains, the fee still due (up to feeDue())
   * to the fee address, in one fee-proxy payment under the payment reference. Only the operator (the
   * deposit relayer) or the payee may call it: the operator chooses between forwarding and returning
   * under the link's policy; the payee may always take what reached its address.
   */
  function forward(uint256 toPayee) external nonReentrant {
    if (msg.sender != operator && msg.sender != payee) revert NotOperatorOrPayee();
    uint256 balance = token.balanceOf(address(this));
    if (toPayee > balance) revert InsufficientBalance();
    uint256 fee = feeDue();
    if (fee > balance - toPayee) fee = balance - toPayee;
    paid += toPayee; // effects before the token calls
    feePaid += fee;
    _viaProxy(payee, toPayee, abi.encodePacked(paymentReference), fee, fee == 0 ? address(0) : feeAddress, balance);
    emit Forwarded(toPayee, fee);
  }

  /**
   * @notice Sends `value` back to `to` under `refundReference` (the request's refund reference for `to`:
   * detection records it as a refund). Operator only. Before `closesAt` only once the payee and the fee
   * address have received what they are owed (PayeeNotPaid): an excess, never the payee's money.
   */
  function giveBack(address to, uint256 value, bytes8 refundReference) external nonReentrant {
    if (msg.sender != operator) revert NotOperator();
    // A return to the payee, or under the payment reference, would read as a payment of the request.
    if (to == address(0) || to == payee || to == address(this) || refundReference == paymentReference || value == 0) revert BadReturn();
    if (block.timestamp < closesAt && (paid < amount || feePaid < feeAmount)) revert PayeeNotPaid();
    uint256 balance = token.balanceOf(address(this));
    if (value > balance) revert InsufficientBalance();
    returned += value;
    _viaProxy(to, value, abi.encodePacked(refundReference), 0, address(0), balance);
    emit Returned(to, value, refundReference);
  }

  /// @notice Another token sent here by mistake goes to the payee (anyone may call it, as Request Network's rescueFunds).
  function recoverToken(address otherToken) external nonReentrant {
    if (otherToken == address(token)) revert WrongToken();
    IERC20 other = IERC20(otherToken);
    other.safeTransfer(payee, other.balanceOf(address(this)));
  }

  /// @dev One fee-proxy transfer of exactly `value + fee` out of this address (checked: a fee-on-transfer token cannot skew it).
  function _viaProxy(address to, uint256 value, bytes memory ref, uint256 fee, address feeTo, uint256 balance) private {
    token.forceApprove(address(erc20FeeProxy), value + fee);
    erc20FeeProxy.transferFromWithReferenceAndFee(address(token), to, value, ref, fee, feeTo);
    if (token.balanceOf(address(this)) != balance - value - fee) revert BalanceMismatch();
  }
}
