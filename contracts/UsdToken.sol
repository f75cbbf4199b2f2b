// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";

/// @title Local test USD
/// @notice A USDC-like ERC-20 (6 decimals) for the local chain, with EIP-3009 `transferWithAuthorization`, so a
/// wallet pays a name with one signature under the x402 protocol (scheme `exact`). The owner (the service) mints
/// faucet grants, each named by the ref of its database journal row so that a grant retried after a crash mints
/// once, and pays refunds of x402 purchases from its own balance, once per purchase ref.
contract UsdToken is ERC20, Ownable, EIP712 {
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    event Granted(bytes32 indexed ref, address indexed to, uint256 amount);
    event GrantRevoked(bytes32 indexed ref, address indexed from, uint256 amount);
    event PaidOnce(bytes32 indexed ref, address indexed to, uint256 amount);

    error InvalidReceiver(address receiver);
    error AuthorizationNotYetValid();
    error AuthorizationExpired();
    error AuthorizationAlreadyUsed(address authorizer, bytes32 nonce);
    error InvalidSignature();
    error GrantMismatch(bytes32 ref);
    error PaymentMismatch(bytes32 ref);

    struct Grant {
        address to;
        uint256 amount;
    }

    struct Payment {
        address to;
        uint256 amount;
    }

    /// The EIP-712 domain's version, as USDC names it; the domain is (name, version, chainId, this contract).
    string public constant version = "1";

    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH =
        keccak256("TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)");

    mapping(address => mapping(bytes32 => bool)) private _authorizationUsed;
    mapping(bytes32 => Grant) public grants;
    mapping(bytes32 => Payment) public payments;
    bytes32[] private _grantRefs;

    constructor() ERC20("Namefi Test USD", "USDC") Ownable(msg.sender) EIP712("Namefi Test USD", version) {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    // ---- EIP-3009 ----

    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return _authorizationUsed[authorizer][nonce];
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
        _useAuthorization(from, to, value, validAfter, validBefore, nonce, v, r, s);
        _transfer(from, to, value);
    }

    /// The same with the signature as 65 bytes (r, s, v), as USDC 2.2 also accepts it.
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes calldata signature
    ) external {
        if (signature.length != 65) revert InvalidSignature();
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        _useAuthorization(from, to, value, validAfter, validBefore, nonce, v, r, s);
        _transfer(from, to, value);
    }

    /// The service's journal replay: a settlement the database recorded but the chain lost (its state saved before
    /// it), whose validity window has passed since, so `transferWithAuthorization` can no longer carry it. Still only
    /// what `from` signed, once per nonce; only the time window is not checked again (the owner settled it inside it).
    function replayAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes calldata signature
    ) external onlyOwner {
        if (signature.length != 65) revert InvalidSignature();
        _checkAuthorization(from, to, value, validAfter, validBefore, nonce, uint8(signature[64]), bytes32(signature[0:32]), bytes32(signature[32:64]));
        _transfer(from, to, value);
    }

    /// Only `from`'s own key authorises (ECDSA, low s): as in USDC, a contract account cannot sign for itself here.
    function _useAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) private {
        if (block.timestamp <= validAfter) revert AuthorizationNotYetValid();
        if (block.timestamp >= validBefore) revert AuthorizationExpired();
        _checkAuthorization(from, to, value, validAfter, validBefore, nonce, v, r, s);
    }

    /// The signature and the nonce of an authorization; marks the nonce used.
    function _checkAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) private {
        if (_authorizationUsed[from][nonce]) revert AuthorizationAlreadyUsed(from, nonce);
        bytes32 digest = _hashTypedDataV4(
            keccak256(abi.encode(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce))
        );
        if (v < 27) v += 27;
        (address signer, ECDSA.RecoverError problem,) = ECDSA.tryRecover(digest, v, r, s);
        if (problem != ECDSA.RecoverError.NoError || signer != from) revert InvalidSignature();
        _authorizationUsed[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
    }

    // ---- The service: faucet grants and refunds ----

    /// Mints `amount` to `to` once per `ref`; the same grant again is a no-op, a different one under its ref reverts.
    function grant(address to, uint256 amount, bytes32 ref) external onlyOwner {
        Grant storage g = grants[ref];
        if (g.to != address(0)) {
            if (g.to != to || g.amount != amount) revert GrantMismatch(ref);
            return;
        }
        if (to == address(0)) revert InvalidReceiver(to);
        grants[ref] = Grant(to, amount);
        _grantRefs.push(ref);
        emit Granted(ref, to, amount);
        _mint(to, amount);
    }

    /// Takes back a grant the journal never recorded (a crash between the mint and the database commit): as much of
    /// it as the wallet still holds. The ref stays listed with amount 0.
    function revokeGrant(bytes32 ref) external onlyOwner returns (uint256 shortfall) {
        Grant storage g = grants[ref];
        uint256 held = balanceOf(g.to);
        uint256 taken = held < g.amount ? held : g.amount;
        shortfall = g.amount - taken;
        g.amount = 0;
        emit GrantRevoked(ref, g.to, taken);
        // OpenZeppelin refuses to burn from the zero address, the holder of a ref never granted.
        if (g.to != address(0)) _burn(g.to, taken);
    }

    function grantRefs() external view returns (bytes32[] memory) {
        return _grantRefs;
    }

    /// Pays `amount` of the owner's tokens to `to` once per `ref` (an x402 refund), so a retried refund pays once.
    function payOnce(bytes32 ref, address to, uint256 amount) external onlyOwner {
        Payment storage p = payments[ref];
        if (p.to != address(0)) {
            if (p.to != to || p.amount != amount) revert PaymentMismatch(ref);
            return;
        }
        payments[ref] = Payment(to, amount);
        _transfer(msg.sender, to, amount);
        emit PaidOnce(ref, to, amount);
    }
}
