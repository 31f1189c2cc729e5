// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";

/// @notice The payment entry point of Request Network's ERC20FeeProxy (selector 0xc219a14d).
interface IERC20FeeProxy {
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
 * @title DuebillRecurringPayments
 * @notice Recurring ERC-20 payments authorised once by an EIP-712 permit (EOA or ERC-1271 signer) and
 * triggered by Duebill's relayer, one payment index at a time: never early (each index has its own
 * signed due time), never twice, never out of order, never past the permit's deadline, never after a
 * cancellation. Funds move subscriber -> this contract -> ERC20FeeProxy -> recipient (+ fee address)
 * within one transaction, so the fee proxy's TransferWithReferenceAndFee event carries each payment's
 * own reference and the contract never keeps a balance.
 *
 * Schedule state is keyed by (subscriber, scheduleId) and excludes nonce and deadline, so a permit
 * re-signed with a later deadline continues the same schedule instead of restarting it.
 */
contract DuebillRecurringPayments is EIP712, AccessControl, Pausable, ReentrancyGuardTransient {
  using SafeERC20 for IERC20;

  struct SchedulePermit {
    address subscriber; // the payer; pays amount + feeAmount + relayerFee per payment
    address token;
    address recipient;
    address feeAddress;
    uint128 amount;
    uint128 feeAmount;
    uint128 relayerFee; // paid to the relayer (msg.sender)
    uint16 totalPayments; // 2..256
    uint256 nonce;
    uint256 deadline; // unix seconds; no trigger after it
    bytes32 scheduleId; // the API's schedule id (keccak256 of its ULID)
    uint32[] dueTimes; // strictly increasing, one per payment
    bytes8[] paymentReferences; // one per payment (each payment is its own request)
  }

  /// @dev State of one schedule: a single storage slot.
  struct Schedule {
    uint16 lastPaid; // payments 1..lastPaid are paid, in order
    bool cancelled;
  }

  error BadSignature();
  error SignatureExpired();
  error BadSchedule();
  error IndexOutOfBounds();
  error PaymentOutOfOrder();
  error NotDueYet();
  error AlreadyPaid();
  error ScheduleIsCancelled();
  error BalanceMismatch();
  error ZeroAddress();

  event PaymentTriggered(bytes32 indexed key, address indexed subscriber, uint16 index, bytes8 paymentReference, uint256 amount);
  event ScheduleCancelled(bytes32 indexed key, address indexed by);
  event FeeProxyUpdated(address indexed feeProxy);

  bytes32 public constant RELAYER_ROLE = keccak256("RELAYER_ROLE");

  /// @notice Most payments one schedule may have (the API accepts 2..256).
  uint16 public constant MAX_PAYMENTS = 256;

  bytes32 public constant SCHEDULE_PERMIT_TYPEHASH =
    keccak256(
      "SchedulePermit(address subscriber,address token,address recipient,address feeAddress,uint128 amount,uint128 feeAmount,"
      "uint128 relayerFee,uint16 totalPayments,uint256 nonce,uint256 deadline,bytes32 scheduleId,uint32[] dueTimes,"
      "bytes8[] paymentReferences)"
    );

  IERC20FeeProxy public erc20FeeProxy;

  mapping(bytes32 key => Schedule) private _schedules;

  constructor(address admin, address relayer, address erc20FeeProxy_) EIP712("DuebillRecurringPayments", "1") {
    if (admin == address(0) || relayer == address(0) || erc20FeeProxy_ == address(0)) revert ZeroAddress();
    _grantRole(DEFAULT_ADMIN_ROLE, admin);
    _grantRole(RELAYER_ROLE, relayer);
    erc20FeeProxy = IERC20FeeProxy(erc20FeeProxy_);
    emit FeeProxyUpdated(erc20FeeProxy_);
  }

  // ---------------------------------------------------------------- payments

  /**
   * @notice Pays payment `index` (1-based) of the schedule `p` signed by `p.subscriber`.
   * Checks, in order: signature (BadSignature), deadline (SignatureExpired), the permit's own
   * consistency (BadSchedule), 1 <= index <= totalPayments (IndexOutOfBounds), no skipping ahead:
   * index <= lastPaid + 1 (PaymentOutOfOrder), due time reached (NotDueYet), index > lastPaid
   * (AlreadyPaid), not cancelled (ScheduleIsCancelled). Together: index == lastPaid + 1.
   */
  function triggerPayment(
    SchedulePermit calldata p,
    bytes calldata signature,
    uint16 index
  ) external onlyRole(RELAYER_ROLE) nonReentrant whenNotPaused {
    if (!SignatureChecker.isValidSignatureNowCalldata(p.subscriber, _hashPermit(p), signature)) revert BadSignature();
    if (block.timestamp > p.deadline) revert SignatureExpired();
    _checkSchedule(p);
    if (index == 0 || index > p.totalPayments) revert IndexOutOfBounds();

    bytes32 key = scheduleKey(p.subscriber, p.scheduleId);
    Schedule storage s = _schedules[key];
    uint256 last = s.lastPaid;
    if (index > last + 1) revert PaymentOutOfOrder();
    if (block.timestamp < p.dueTimes[index - 1]) revert NotDueYet();
    if (index <= last) revert AlreadyPaid();
    if (s.cancelled) revert ScheduleIsCancelled();

    s.lastPaid = index; // effects before the token calls
    bytes8 paymentReference = p.paymentReferences[index - 1];
    _pay(p, paymentReference);
    emit PaymentTriggered(key, p.subscriber, index, paymentReference, p.amount);
  }

  /// @dev Pulls exactly amount + feeAmount + relayerFee, pays through the fee proxy, tips the relayer, keeps nothing.
  function _pay(SchedulePermit calldata p, bytes8 paymentReference) private {
    IERC20 token = IERC20(p.token);
    uint256 toProxy = uint256(p.amount) + p.feeAmount;
    uint256 total = toProxy + p.relayerFee;
    uint256 before = token.balanceOf(address(this));

    token.safeTransferFrom(p.subscriber, address(this), total);
    // Exact pull: a fee-on-transfer or rebasing token would leave the payment short.
    if (token.balanceOf(address(this)) != before + total) revert BalanceMismatch();

    IERC20FeeProxy proxy = erc20FeeProxy;
    token.forceApprove(address(proxy), toProxy); // USDT-safe: resets to 0 first when needed
    proxy.transferFromWithReferenceAndFee(p.token, p.recipient, p.amount, abi.encodePacked(paymentReference), p.feeAmount, p.feeAddress);
    if (p.relayerFee != 0) token.safeTransfer(msg.sender, p.relayerFee);

    // Nothing stays here: the fee proxy pulled exactly amount + feeAmount and the relayer got the rest.
    if (token.balanceOf(address(this)) != before) revert BalanceMismatch();
  }

  /**
   * @notice Stops a schedule for good. Callable by its subscriber or a relayer (works while paused).
   * Reverts ScheduleIsCancelled when already cancelled, AccessControlUnauthorizedAccount for anyone else.
   */
  function cancelSchedule(SchedulePermit calldata p) external {
    if (msg.sender != p.subscriber && !hasRole(RELAYER_ROLE, msg.sender)) {
      revert AccessControlUnauthorizedAccount(msg.sender, RELAYER_ROLE);
    }
    bytes32 key = scheduleKey(p.subscriber, p.scheduleId);
    Schedule storage s = _schedules[key];
    if (s.cancelled) revert ScheduleIsCancelled();
    s.cancelled = true;
    emit ScheduleCancelled(key, msg.sender);
  }

  // ---------------------------------------------------------------- views

  function scheduleKey(address subscriber, bytes32 scheduleId) public pure returns (bytes32) {
    return keccak256(abi.encode(subscriber, scheduleId));
  }

  function lastPaidIndex(bytes32 key) external view returns (uint16) {
    return _schedules[key].lastPaid;
  }

  function isPaid(bytes32 key, uint16 index) external view returns (bool) {
    return index != 0 && index <= _schedules[key].lastPaid;
  }

  function isCancelled(bytes32 key) external view returns (bool) {
    return _schedules[key].cancelled;
  }

  /// @notice The EIP-712 digest the subscriber signs (domain "DuebillRecurringPayments", version "1").
  function hashPermit(SchedulePermit calldata p) external view returns (bytes32) {
    return _hashPermit(p);
  }

  // ---------------------------------------------------------------- admin

  /// @notice Replaces one relayer by another (more relayers: grantRole/revokeRole RELAYER_ROLE).
  function setRelayer(address oldRelayer, address newRelayer) external onlyRole(DEFAULT_ADMIN_ROLE) {
    if (newRelayer == address(0)) revert ZeroAddress();
    _revokeRole(RELAYER_ROLE, oldRelayer);
    _grantRole(RELAYER_ROLE, newRelayer);
  }

  function setFeeProxy(address newFeeProxy) external onlyRole(DEFAULT_ADMIN_ROLE) {
    if (newFeeProxy == address(0)) revert ZeroAddress();
    erc20FeeProxy = IERC20FeeProxy(newFeeProxy);
    emit FeeProxyUpdated(newFeeProxy);
  }

  function pause() external onlyRole(DEFAULT_ADMIN_ROLE) {
    _pause();
  }

  function unpause() external onlyRole(DEFAULT_ADMIN_ROLE) {
    _unpause();
  }

  // ---------------------------------------------------------------- internals

  /// @dev Lengths match totalPayments (2..MAX_PAYMENTS), due times strictly increase, a fee has somewhere to go.
  function _checkSchedule(SchedulePermit calldata p) private pure {
    uint256 n = p.totalPayments;
    if (n < 2 || n > MAX_PAYMENTS || p.dueTimes.length != n || p.paymentReferences.length != n) revert BadSchedule();
    // ERC20FeeProxy skips the fee when feeAddress is 0: the pulled fee would be stranded here.
    if (p.feeAmount != 0 && p.feeAddress == address(0)) revert BadSchedule();
    uint32[] calldata due = p.dueTimes;
    for (uint256 i = 1; i < n; ++i) {
      if (due[i] <= due[i - 1]) revert BadSchedule();
    }
  }

  function _hashPermit(SchedulePermit calldata p) private view returns (bytes32) {
    // EIP-712 encodes an array as keccak256 of its 32-byte-padded elements: what encodePacked gives for arrays.
    bytes32 structHash = keccak256(
      bytes.concat(
        abi.encode(SCHEDULE_PERMIT_TYPEHASH, p.subscriber, p.token, p.recipient, p.feeAddress, p.amount, p.feeAmount, p.relayerFee),
        abi.encode(
          p.totalPayments,
          p.nonce,
          p.deadline,
          p.scheduleId,
          keccak256(abi.encodePacked(p.dueTimes)),
          keccak256(abi.encodePacked(p.paymentReferences))
        )
      )
    );
    return _hashTypedDataV4(structHash);
  }
}
