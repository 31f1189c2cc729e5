// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {DuebillDepositAddress} from "./DuebillDepositAddress.sol";

/**
 * @title DuebillDepositFactory
 * @notice Creates one DuebillDepositAddress per request, with the caller (Duebill's deposit relayer)
 * as its operator and the network's ERC20FeeProxy fixed at deployment. Anyone may create one: an
 * address is only trusted by the Duebill deployment whose relayer created it (it stores the address
 * from the creation event of its own transaction).
 */
contract DuebillDepositFactory {
  error ZeroAddress();
  error BadTerms();

  event DepositAddressCreated(
    address indexed depositAddress,
    bytes8 indexed paymentReference,
    address indexed operator,
    address payee,
    address token,
    uint256 amount,
    address feeAddress,
    uint256 feeAmount,
    uint64 closesAt
  );

  address public immutable erc20FeeProxy;

  constructor(address erc20FeeProxy_) {
    if (erc20FeeProxy_ == address(0)) revert ZeroAddress();
    erc20FeeProxy = erc20FeeProxy_;
  }

  /**
   * @notice A deposit address for one request: `amount` to `payee` plus `feeAmount` to `feeAddress`,
   * in `token`, under `paymentReference`; what it holds may go back after `closesAt` (unix seconds).
   */
  function create(
    address payee,
    address token,
    bytes8 paymentReference,
    address feeAddress,
    uint256 feeAmount,
    uint256 amount,
    uint64 closesAt
  ) external returns (address) {
    if (payee == address(0) || token == address(0)) revert ZeroAddress();
    // ERC20FeeProxy skips a fee whose address is 0: a fee owed there could never be paid.
    if (amount == 0 || (feeAmount != 0 && feeAddress == address(0))) revert BadTerms();
    DuebillDepositAddress d = new DuebillDepositAddress(
      erc20FeeProxy,
      msg.sender,
      payee,
      token,
      paymentReference,
      feeAddress,
      feeAmount,
      amount,
      closesAt
    );
    emit DepositAddressCreated(address(d), paymentReference, msg.sender, payee, token, amount, feeAddress, feeAmount, closesAt);
    return address(d);
  }
}
