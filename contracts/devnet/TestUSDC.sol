// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./TestERC20.sol";

/// @notice Stands in for USDC on the devnet: an ERC-20 with 6 decimals that, like Circle's FiatTokenV2_2,
/// implements EIP-3009 (transferWithAuthorization, receiveWithAuthorization, cancelAuthorization) and
/// EIP-2612 (permit), with the same type hashes, the same EIP-712 domain shape (name, version "2",
/// chainId, verifyingContract) and the same rules: authorizations are random 32-byte nonces used once
/// per authorizer, valid strictly after validAfter and strictly before validBefore; receiveWithAuthorization
/// only by the payee (front-running safe). Signatures: 65-byte ECDSA (v, r, s), low-s enforced.
contract TestUSDC is TestERC20 {
  bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH =
    keccak256("TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)");
  bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH =
    keccak256("ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)");
  bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH = keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");
  bytes32 public constant PERMIT_TYPEHASH =
    keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");

  /// @notice EIP-712 domain version, as USDC's ("2").
  string public constant version = "2";

  mapping(address => mapping(bytes32 => bool)) private _authorizationStates;
  /// @notice EIP-2612 nonces.
  mapping(address => uint256) public nonces;

  event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
  event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

  constructor() TestERC20("Test USD Coin", "USDC", 6) {}

  // solhint-disable-next-line func-name-mixedcase
  function DOMAIN_SEPARATOR() public view returns (bytes32) {
    return keccak256(
      abi.encode(
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
        keccak256(bytes(name)),
        keccak256(bytes(version)),
        block.chainid,
        address(this)
      )
    );
  }

  /// @notice Whether `nonce` of `authorizer` was used or canceled.
  function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
    return _authorizationStates[authorizer][nonce];
  }

  function transferWithAuthorization(
    address from,
    address to,
    uint256 value,
    uint256 validAfter,
    uint256 validBefore,
    bytes32 nonce,
    uint8 v,
    bytes32 r,
    bytes32 s
  ) external {
    _useAuthorization(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v));
    _move(from, to, value);
  }

  /// @notice USDC v2.2's bytes-signature overload (EOA signatures here).
  function transferWithAuthorization(
    address from,
    address to,
    uint256 value,
    uint256 validAfter,
    uint256 validBefore,
    bytes32 nonce,
    bytes memory signature
  ) external {
    _useAuthorization(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature);
    _move(from, to, value);
  }

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
  ) external {
    require(to == msg.sender, "FiatTokenV2: caller must be the payee");
    _useAuthorization(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v));
    _move(from, to, value);
  }

  function receiveWithAuthorization(
    address from,
    address to,
    uint256 value,
    uint256 validAfter,
    uint256 validBefore,
    bytes32 nonce,
    bytes memory signature
  ) external {
    require(to == msg.sender, "FiatTokenV2: caller must be the payee");
    _useAuthorization(RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature);
    _move(from, to, value);
  }

  function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
    require(!_authorizationStates[authorizer][nonce], "FiatTokenV2: authorization is used or canceled");
    bytes32 digest = _digest(keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce)));
    require(_recover(digest, abi.encodePacked(r, s, v)) == authorizer, "FiatTokenV2: invalid signature");
    _authorizationStates[authorizer][nonce] = true;
    emit AuthorizationCanceled(authorizer, nonce);
  }

  function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external {
    require(deadline >= block.timestamp, "FiatTokenV2: permit is expired");
    bytes32 digest = _digest(keccak256(abi.encode(PERMIT_TYPEHASH, owner, spender, value, nonces[owner]++, deadline)));
    require(_recover(digest, abi.encodePacked(r, s, v)) == owner, "EIP2612: invalid signature");
    allowance[owner][spender] = value;
    emit Approval(owner, spender, value);
  }

  function _useAuthorization(
    bytes32 typehash,
    address from,
    address to,
    uint256 value,
    uint256 validAfter,
    uint256 validBefore,
    bytes32 nonce,
    bytes memory signature
  ) private {
    require(block.timestamp > validAfter, "FiatTokenV2: authorization is not yet valid");
    require(block.timestamp < validBefore, "FiatTokenV2: authorization is expired");
    require(!_authorizationStates[from][nonce], "FiatTokenV2: authorization is used or canceled");
    bytes32 digest = _digest(keccak256(abi.encode(typehash, from, to, value, validAfter, validBefore, nonce)));
    require(_recover(digest, signature) == from, "FiatTokenV2: invalid signature");
    _authorizationStates[from][nonce] = true;
    emit AuthorizationUsed(from, nonce);
  }

  function _digest(bytes32 structHash) private view returns (bytes32) {
    return keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
  }

  /// @dev ECDSA recovery with OpenZeppelin's / USDC's malleability rules: 65 bytes, low s, v 27 or 28.
  function _recover(bytes32 digest, bytes memory signature) private pure returns (address) {
    require(signature.length == 65, "ECRecover: invalid signature length");
    bytes32 r;
    bytes32 s;
    uint8 v;
    assembly {
      r := mload(add(signature, 0x20))
      s := mload(add(signature, 0x40))
      v := byte(0, mload(add(signature, 0x60)))
    }
    require(uint256(s) <= 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0, "ECRecover: invalid signature 's' value");
    require(v == 27 || v == 28, "ECRecover: invalid signature 'v' value");
    address signer = ecrecover(digest, v, r, s);
    require(signer != address(0), "ECRecover: invalid signature");
    return signer;
  }
}
