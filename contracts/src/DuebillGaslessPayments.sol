// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @notice The payment entry point of Request Network's ERC20FeeProxy (selector 0xc219a14d).
interface IERC20FeeProxyGasless {
  function transferFromWithReferenceAndFee(
    address tokenAddress,
    address to,
    uint256 amount,
    bytes calldata paymentReference,
    uint256 feeAmount,
    address feeAddress
  ) external;
}

/// @notice EIP-3009 as Circle's FiatToken v2 implements it (the v, r, s overloads exist since v2.0).
interface IEIP3009 {
  function authorizationState(address authorizer, bytes32 nonce) external view returns (bool);

  // solhint-disable-next-line func-name-mixedcase
  function DOMAIN_SEPARATOR() external view returns (bytes32);

  function receiveWithAuthorization(
    address from,
    address to,
    uint256 value,
    uint256 validAfter,
    uint256 validBefore,
    bytes32 nonce,
    uint8 v,
    bytes32 r,
    bytes32 s
  ) external;
}

/**
 * @title DuebillGaslessPayments
 * @notice Gasless payments of Duebill requests: the payer signs one EIP-3009 ReceiveWithAuthorization
 * (to = this contract) and anyone (Duebill's relayer) submits it here. The contract receives the tokens
 * with receiveWithAuthorization — which only the payee (this contract) may call, so the signature cannot
 * be front-run into a plain transfer — then pays the payee and the fee through the network's ERC20FeeProxy
 * with the request's payment reference (so detection records it like any payment) and the relayer's fee,
 * if any, to its recipient. It never keeps a balance.
 *
 * An EIP-3009 signature covers only (from, to, value, validAfter, validBefore, nonce). The payment's
 * details are bound through the nonce: it must equal paymentNonce(p), a hash of the chain, this contract,
 * the token, the payer, the payee, every amount and address and the reference. Whoever replays the
 * signature with another payee (or amount, fee, reference) gets NonceMismatch, or BadSignature if they
 * pass the nonce of their own details: either way no tokens move.
 *
 * Rules, one custom error each, checked in this order: NonceMismatch, AuthorizationUsed (a used or
 * canceled nonce, so a second submission), AuthorizationNotYetValid, AuthorizationExpired, BadSignature
 * (not the payer's signature over these terms, or a high-s one), BalanceMismatch (the token delivered
 * another amount than signed). The token enforces the same again.
 */
contract DuebillGaslessPayments is ReentrancyGuardTransient {
  using SafeERC20 for IERC20;

  struct Payment {
    address token;
    address from; // the payer, the authorization's signer
    address payee;
    uint256 amount;
    address feeAddress;
    uint256 feeAmount;
    address relayerFeeAddress;
    uint256 relayerFee; // paid to relayerFeeAddress in the token; 0 allowed
    bytes paymentReference; // the request's 8-byte reference, as the fee proxy takes it
    bytes32 salt; // random per quote: two payments of the same terms have different nonces
  }

  error ZeroAddress();
  error NonceMismatch();
  error AuthorizationUsed();
  error AuthorizationNotYetValid();
  error AuthorizationExpired();
  error BadSignature();
  error BalanceMismatch();

  /// @notice One per payment; the fee proxy's TransferWithReferenceAndFee in the same transaction is the payment itself.
  event GaslessPayment(
    address indexed from,
    address indexed token,
    bytes32 indexed nonce,
    bytes paymentReference,
    uint256 amount,
    uint256 feeAmount,
    uint256 relayerFee
  );

  /// @dev The token's EIP-3009 type hash (FiatToken v2's RECEIVE_WITH_AUTHORIZATION_TYPEHASH).
  bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH =
    keccak256("ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)");

  IERC20FeeProxyGasless public immutable erc20FeeProxy;

  constructor(address erc20FeeProxy_) {
    if (erc20FeeProxy_ == address(0)) revert ZeroAddress();
    erc20FeeProxy = IERC20FeeProxyGasless(erc20FeeProxy_);
  }

  /// @notice The EIP-3009 nonce that commits to every detail of `p` on this chain and contract.
  function paymentNonce(Payment calldata p) public view returns (bytes32) {
    return
      keccak256(
        abi.encode(
          block.chainid,
          address(this),
          p.token,
          p.from,
          p.payee,
          p.amount,
          p.feeAddress,
          p.feeAmount,
          p.relayerFeeAddress,
          p.relayerFee,
          keccak256(p.paymentReference),
          p.salt
        )
      );
  }

  /// @notice The payer's ReceiveWithAuthorization (to = this contract, value = amount + feeAmount + relayerFee).
  struct Authorization {
    uint256 validAfter;
    uint256 validBefore;
    bytes32 nonce;
    uint8 v;
    bytes32 r;
    bytes32 s;
  }

  /// @notice Pays `p` with the payer's authorization `a`.
  function pay(Payment calldata p, Authorization calldata a) external nonReentrant {
    if (a.nonce != paymentNonce(p)) revert NonceMismatch();
    IEIP3009 token = IEIP3009(p.token);
    if (token.authorizationState(p.from, a.nonce)) revert AuthorizationUsed();
    if (block.timestamp <= a.validAfter) revert AuthorizationNotYetValid();
    if (block.timestamp >= a.validBefore) revert AuthorizationExpired();
    uint256 total = p.amount + p.feeAmount + p.relayerFee;
    _checkSignature(token, p.from, total, a);

    IERC20 erc20 = IERC20(p.token);
    uint256 held = erc20.balanceOf(address(this));
    token.receiveWithAuthorization(p.from, address(this), total, a.validAfter, a.validBefore, a.nonce, a.v, a.r, a.s);
    if (erc20.balanceOf(address(this)) != held + total) revert BalanceMismatch();

    erc20.forceApprove(address(erc20FeeProxy), p.amount + p.feeAmount);
    erc20FeeProxy.transferFromWithReferenceAndFee(p.token, p.payee, p.amount, p.paymentReference, p.feeAmount, p.feeAddress);
    if (p.relayerFee > 0) erc20.safeTransfer(p.relayerFeeAddress, p.relayerFee);
    emit GaslessPayment(p.from, p.token, a.nonce, p.paymentReference, p.amount, p.feeAmount, p.relayerFee);
  }

  /// @dev The token would reject a foreign signature too, with a string; checking first names the rule.
  function _checkSignature(IEIP3009 token, address from, uint256 total, Authorization calldata a) private view {
    bytes32 structHash = keccak256(
      abi.encode(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, address(this), total, a.validAfter, a.validBefore, a.nonce)
    );
    bytes32 digest = keccak256(abi.encodePacked("\x19\x01", token.DOMAIN_SEPARATOR(), structHash));
    // tryRecover refuses a high-s (malleable) signature and v other than 27/28.
    (address signer, ECDSA.RecoverError err, ) = ECDSA.tryRecover(digest, a.v, a.r, a.s);
    if (err != ECDSA.RecoverError.NoError || signer != from) revert BadSignature();
  }
}
