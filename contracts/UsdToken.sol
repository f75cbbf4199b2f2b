// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Local test USD
/// @notice A USDC-like ERC-20 (6 decimals) for the local chain, with EIP-3009 `transferWithAuthorization`, so a
/// wallet pays a name with one signature under the x402 protocol (scheme `exact`). The owner (the service) mints
/// faucet grants, each named by the ref of its database journal row so that a grant retried after a crash mints
/// once, and pays refunds of x402 purchases from its own balance, once per purchase ref.
contract UsdToken {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    event Granted(bytes32 indexed ref, address indexed to, uint256 amount);
    event GrantRevoked(bytes32 indexed ref, address indexed from, uint256 amount);
    event PaidOnce(bytes32 indexed ref, address indexed to, uint256 amount);

    error NotOwner();
    error InsufficientBalance(address account, uint256 balance, uint256 needed);
    error InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
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

    string public constant name = "Namefi Test USD";
    string public constant symbol = "USDC";
    string public constant version = "1";
    uint8 public constant decimals = 6;

    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH =
        keccak256("TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)");
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    /// secp256k1n / 2: a signature with a larger s is the malleable twin of another and is refused.
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    address public owner;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => mapping(bytes32 => bool)) private _authorizationUsed;
    mapping(bytes32 => Grant) public grants;
    mapping(bytes32 => Payment) public payments;
    bytes32[] private _grantRefs;

    constructor() {
        owner = msg.sender;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    // ---- ERC-20 ----

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < value) revert InsufficientAllowance(msg.sender, allowed, value);
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    // ---- EIP-3009 ----

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(name)), keccak256(bytes(version)), block.chainid, address(this)));
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
        if (_authorizationUsed[from][nonce]) revert AuthorizationAlreadyUsed(from, nonce);
        bytes32 structHash = keccak256(abi.encode(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce));
        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
        if (v < 27) v += 27;
        if (uint256(s) > HALF_ORDER || (v != 27 && v != 28)) revert InvalidSignature();
        address signer = ecrecover(digest, v, r, s);
        if (signer == address(0) || signer != from) revert InvalidSignature();
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
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Granted(ref, to, amount);
        emit Transfer(address(0), to, amount);
    }

    /// Takes back a grant the journal never recorded (a crash between the mint and the database commit): as much of
    /// it as the wallet still holds. The ref stays listed with amount 0.
    function revokeGrant(bytes32 ref) external onlyOwner returns (uint256 shortfall) {
        Grant storage g = grants[ref];
        uint256 held = balanceOf[g.to];
        uint256 taken = held < g.amount ? held : g.amount;
        shortfall = g.amount - taken;
        balanceOf[g.to] = held - taken;
        totalSupply -= taken;
        g.amount = 0;
        emit GrantRevoked(ref, g.to, taken);
        emit Transfer(g.to, address(0), taken);
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

    function _transfer(address from, address to, uint256 value) private {
        if (to == address(0)) revert InvalidReceiver(to);
        uint256 balance = balanceOf[from];
        if (balance < value) revert InsufficientBalance(from, balance, value);
        balanceOf[from] = balance - value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
