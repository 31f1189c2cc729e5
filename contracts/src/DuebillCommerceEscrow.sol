// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

/// @notice The payment entry point of Request Network's ERC20FeeProxy (selector 0xc219a14d).
interface IEscrowFeeProxy {
  function transferFromWithReferenceAndFee(
    address tokenAddress,
    address to,
    uint256 amount,
    bytes calldata paymentReference,
    uint256 feeAmount,
    address feeAddress
  ) external;
}

/// @notice EIP-3009's receiveWithAuthorization, `bytes signature` overload (FiatToken v2.2).
interface IReceiveWithAuthorization {
  function receiveWithAuthorization(
    address from,
    address to,
    uint256 value,
    uint256 validAfter,
    uint256 validBefore,
    bytes32 nonce,
    bytes calldata signature
  ) external;
}

/**
 * @title DuebillCommerceEscrow
 * @notice Authorize-then-capture for payment requests, without an owner and without custody beyond
 * each payment's own escrow: the payer authorizes `maxAmount` (an EIP-3009 signature anyone may
 * submit, or an allowance the payer spends in its own transaction); the payment's operator captures
 * all or part before `authorizationExpiry` — through the ERC20FeeProxy with the request's payment
 * reference, so Request Network style detection records the capture as a payment — and voids the
 * rest; after `authorizationExpiry` the payer reclaims what was neither captured nor voided; the
 * operator or the receiver refunds up to what was captured, from its own funds.
 *
 * Every escrowed unit is, at every moment, capturable (by the operator, before the expiry),
 * reclaimable (by the payer, after it) or already paid out: captured + voided + reclaimed <= maxAmount.
 *
 * A payment is identified by the hash of everything it binds (paymentId). For the signature path
 * that hash is the EIP-3009 nonce the payer signs, so a signature authorizes exactly one payment:
 * another receiver, operator, amount, deadline, fee or reference is another nonce, and the token
 * refuses a nonce twice.
 */
contract DuebillCommerceEscrow is ReentrancyGuardTransient {
  using SafeERC20 for IERC20;

  struct PaymentInfo {
    address operator; // captures, voids, refunds: the merchant's operator wallet or Duebill's relayer
    address payer;
    address receiver; // the request's payee
    address token;
    uint120 maxAmount; // what the payer escrows (fee included)
    uint48 preApprovalExpiry; // no authorization from this time on (the EIP-3009 validBefore)
    uint48 authorizationExpiry; // no capture from this time on; the payer may reclaim from then
    uint16 maxFeeBps; // the largest share of a capture that may go to feeReceiver
    address feeReceiver;
    bytes8 paymentReference; // the request's reference, passed to the fee proxy
    uint256 salt; // tells apart payments that are otherwise equal
  }

  /// @dev One payment's amounts (two slots). capturable is what sits here for it.
  struct PaymentState {
    bool authorized;
    uint120 capturable;
    uint128 captured;
    uint128 refunded;
  }

  error ZeroAddress();
  error ZeroAmount();
  error InvalidExpiries();
  error FeeBpsTooHigh();
  error FeeReceiverMissing();
  error PreApprovalExpired();
  error AlreadyAuthorized();
  error NotPayer();
  error NotOperator();
  error NotOperatorOrReceiver();
  error AuthorizationExpired();
  error AuthorizationNotExpired();
  error ExceedsCapturable();
  error FeeTooHigh();
  error NothingToVoid();
  error NothingToReclaim();
  error RefundExceedsCaptured();
  error BalanceMismatch();

  event PaymentAuthorized(bytes32 indexed paymentId, bytes8 indexed paymentReference, address indexed payer, uint256 amount, bool viaSignature);
  event PaymentCaptured(bytes32 indexed paymentId, bytes8 indexed paymentReference, uint256 amount, uint256 feeAmount);
  event PaymentVoided(bytes32 indexed paymentId, bytes8 indexed paymentReference, uint256 amount);
  event PaymentReclaimed(bytes32 indexed paymentId, bytes8 indexed paymentReference, uint256 amount);
  event PaymentRefunded(bytes32 indexed paymentId, bytes8 indexed paymentReference, address indexed by, uint256 amount);

  uint16 public constant MAX_FEE_BPS = 10_000;

  IEscrowFeeProxy public immutable erc20FeeProxy;

  mapping(bytes32 paymentId => PaymentState) private _payments;

  constructor(address erc20FeeProxy_) {
    if (erc20FeeProxy_ == address(0)) revert ZeroAddress();
    erc20FeeProxy = IEscrowFeeProxy(erc20FeeProxy_);
  }

  // ---------------------------------------------------------------- authorize

  /**
   * @notice Escrows p.maxAmount with the payer's EIP-3009 ReceiveWithAuthorization(from = payer,
   * to = this, value = maxAmount, validAfter = 0, validBefore = preApprovalExpiry, nonce = paymentId(p)).
   * Anyone may submit it (Duebill's relayer does): the signature binds every field of p.
   */
  function authorizeWithSignature(PaymentInfo calldata p, bytes calldata signature) external nonReentrant returns (bytes32 paymentId) {
    paymentId = _startAuthorization(p);
    IERC20 token = IERC20(p.token);
    uint256 before = token.balanceOf(address(this));
    IReceiveWithAuthorization(p.token).receiveWithAuthorization(
      p.payer,
      address(this),
      p.maxAmount,
      0,
      p.preApprovalExpiry,
      paymentId,
      signature
    );
    if (token.balanceOf(address(this)) != before + p.maxAmount) revert BalanceMismatch();
    emit PaymentAuthorized(paymentId, p.paymentReference, p.payer, p.maxAmount, true);
  }

  /// @notice Escrows p.maxAmount from the payer's allowance; the payer sends this transaction (USDT and tokens without EIP-3009).
  function authorizeWithAllowance(PaymentInfo calldata p) external nonReentrant returns (bytes32 paymentId) {
    if (msg.sender != p.payer) revert NotPayer();
    paymentId = _startAuthorization(p);
    IERC20 token = IERC20(p.token);
    uint256 before = token.balanceOf(address(this));
    token.safeTransferFrom(p.payer, address(this), p.maxAmount);
    // Exact pull: a fee-on-transfer token would leave the escrow short of what it promises.
    if (token.balanceOf(address(this)) != before + p.maxAmount) revert BalanceMismatch();
    emit PaymentAuthorized(paymentId, p.paymentReference, p.payer, p.maxAmount, false);
  }

  // ---------------------------------------------------------------- operator

  /**
   * @notice Pays `amount` of the escrow out through the fee proxy: amount - feeAmount to the receiver,
   * feeAmount to p.feeReceiver, under p.paymentReference. Only before authorizationExpiry.
   */
  function capture(PaymentInfo calldata p, uint256 amount, uint256 feeAmount) external nonReentrant {
    if (msg.sender != p.operator) revert NotOperator();
    if (block.timestamp >= p.authorizationExpiry) revert AuthorizationExpired();
    if (amount == 0) revert ZeroAmount();
    bytes32 paymentId = getPaymentId(p);
    PaymentState storage s = _payments[paymentId];
    if (amount > s.capturable) revert ExceedsCapturable();
    if (feeAmount * MAX_FEE_BPS > amount * p.maxFeeBps) revert FeeTooHigh();

    s.capturable -= uint120(amount);
    s.captured += uint128(amount);

    IERC20 token = IERC20(p.token);
    uint256 before = token.balanceOf(address(this));
    token.forceApprove(address(erc20FeeProxy), amount); // USDT-safe: resets to 0 first when needed
    erc20FeeProxy.transferFromWithReferenceAndFee(
      p.token,
      p.receiver,
      amount - feeAmount,
      abi.encodePacked(p.paymentReference),
      feeAmount,
      p.feeReceiver
    );
    // Exactly `amount` left, nothing else: the other payments' escrows are untouched.
    if (token.balanceOf(address(this)) + amount != before) revert BalanceMismatch();
    emit PaymentCaptured(paymentId, p.paymentReference, amount, feeAmount);
  }

  /// @notice Returns everything still capturable to the payer and ends the authorization.
  function void(PaymentInfo calldata p) external nonReentrant {
    if (msg.sender != p.operator) revert NotOperator();
    bytes32 paymentId = getPaymentId(p);
    uint256 amount = _release(paymentId);
    if (amount == 0) revert NothingToVoid();
    IERC20(p.token).safeTransfer(p.payer, amount);
    emit PaymentVoided(paymentId, p.paymentReference, amount);
  }

  // ---------------------------------------------------------------- payer

  /// @notice After authorizationExpiry the payer takes back what was neither captured nor voided.
  function reclaim(PaymentInfo calldata p) external nonReentrant {
    if (msg.sender != p.payer) revert NotPayer();
    if (block.timestamp < p.authorizationExpiry) revert AuthorizationNotExpired();
    bytes32 paymentId = getPaymentId(p);
    uint256 amount = _release(paymentId);
    if (amount == 0) revert NothingToReclaim();
    IERC20(p.token).safeTransfer(p.payer, amount);
    emit PaymentReclaimed(paymentId, p.paymentReference, amount);
  }

  // ---------------------------------------------------------------- refund

  /**
   * @notice Sends `amount` from the caller (the operator or the receiver, with an allowance to this
   * contract) to the payer; all refunds together never exceed what was captured.
   */
  function refund(PaymentInfo calldata p, uint256 amount) external nonReentrant {
    if (msg.sender != p.operator && msg.sender != p.receiver) revert NotOperatorOrReceiver();
    bytes32 paymentId = _recordRefund(p, amount);
    IERC20(p.token).safeTransferFrom(msg.sender, p.payer, amount);
    emit PaymentRefunded(paymentId, p.paymentReference, msg.sender, amount);
  }

  /**
   * @notice Gasless refund: the receiver's EIP-3009 ReceiveWithAuthorization(from = receiver, to = this,
   * value = amount, validAfter = 0, validBefore, nonce = refundNonce(paymentId, amount, refundSalt)) moves
   * `amount` from the receiver, which goes on to the payer. Anyone may submit it (Duebill's relayer does):
   * the nonce binds the payment and the amount, so the signature refunds this payment's payer only, once.
   */
  function refundWithSignature(
    PaymentInfo calldata p,
    uint256 amount,
    uint256 validBefore,
    bytes32 refundSalt,
    bytes calldata signature
  ) external nonReentrant {
    bytes32 paymentId = _recordRefund(p, amount);
    _receiveFromReceiver(p, amount, validBefore, refundNonce(paymentId, amount, refundSalt), signature);
    IERC20(p.token).safeTransfer(p.payer, amount);
    emit PaymentRefunded(paymentId, p.paymentReference, p.receiver, amount);
  }

  // ---------------------------------------------------------------- views

  /// @notice The EIP-3009 nonce the receiver signs for refundWithSignature.
  function refundNonce(bytes32 paymentId, uint256 amount, bytes32 refundSalt) public pure returns (bytes32) {
    return keccak256(abi.encode(paymentId, amount, refundSalt));
  }


  /// @notice The payment's id: what the EIP-3009 authorization's nonce must be.
  function getPaymentId(PaymentInfo calldata p) public view returns (bytes32) {
    return keccak256(abi.encode(block.chainid, address(this), p));
  }

  function paymentState(bytes32 paymentId) external view returns (PaymentState memory) {
    return _payments[paymentId];
  }

  // ---------------------------------------------------------------- internals

  function _startAuthorization(PaymentInfo calldata p) private returns (bytes32 paymentId) {
    if (p.operator == address(0) || p.payer == address(0) || p.receiver == address(0) || p.token == address(0)) revert ZeroAddress();
    if (p.maxAmount == 0) revert ZeroAmount();
    if (p.preApprovalExpiry > p.authorizationExpiry) revert InvalidExpiries();
    if (p.maxFeeBps > MAX_FEE_BPS) revert FeeBpsTooHigh();
    // ERC20FeeProxy skips the fee leg when feeAddress is 0: the fee would stay here, stuck.
    if (p.maxFeeBps != 0 && p.feeReceiver == address(0)) revert FeeReceiverMissing();
    if (block.timestamp >= p.preApprovalExpiry) revert PreApprovalExpired();
    paymentId = getPaymentId(p);
    PaymentState storage s = _payments[paymentId];
    if (s.authorized) revert AlreadyAuthorized();
    s.authorized = true;
    s.capturable = p.maxAmount;
  }

  /// @dev Refund checks and effects: a positive amount, all refunds together within what was captured.
  function _recordRefund(PaymentInfo calldata p, uint256 amount) private returns (bytes32 paymentId) {
    if (amount == 0) revert ZeroAmount();
    paymentId = getPaymentId(p);
    PaymentState storage s = _payments[paymentId];
    if (uint256(s.refunded) + amount > s.captured) revert RefundExceedsCaptured();
    s.refunded += uint128(amount);
  }

  /// @dev Pulls exactly `amount` from the receiver with its EIP-3009 authorization (the token checks the signature and nonce).
  function _receiveFromReceiver(PaymentInfo calldata p, uint256 amount, uint256 validBefore, bytes32 nonce, bytes calldata signature) private {
    IERC20 token = IERC20(p.token);
    uint256 before = token.balanceOf(address(this));
    IReceiveWithAuthorization(p.token).receiveWithAuthorization(p.receiver, address(this), amount, 0, validBefore, nonce, signature);
    if (token.balanceOf(address(this)) != before + amount) revert BalanceMismatch();
  }

  /// @dev Zeroes what is capturable (effects before the transfer) and returns it.
  function _release(bytes32 paymentId) private returns (uint256 amount) {
    PaymentState storage s = _payments[paymentId];
    amount = s.capturable;
    s.capturable = 0;
  }
}
