// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title A minimal smart account
/// @notice Owned by one EOA, with optional extra signers the owner approves. Answers ERC-1271: a signature of
/// `hash` by the owner or an approved signer is valid. It can hold domain NFTs and lets its owner act through it.
/// @dev The same code serves as an EIP-7702 delegation target: an EOA delegated to it runs this code on its own
/// storage, where `owner` is unset, so the EOA itself (`address(this)`) counts as the owner and may approve
/// signers by calling itself.
contract SmartAccount {
    bytes4 internal constant ERC1271_VALID = 0x1626ba7e;
    bytes4 internal constant ERC1271_INVALID = 0xffffffff;
    /// @dev secp256k1n / 2: a larger `s` is the malleable twin of a valid signature.
    uint256 internal constant HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    event SignerChanged(address indexed signer, bool approved);
    event Executed(address indexed to, uint256 value, bytes data);

    error NotAuthorized();
    error CallFailed(bytes reason);

    address public owner;
    mapping(address => bool) public isSigner;

    constructor(address owner_) {
        owner = owner_;
    }

    modifier onlyOwnerOrSelf() {
        if (!_isOwner(msg.sender)) revert NotAuthorized();
        _;
    }

    receive() external payable {}

    /// @notice ERC-1271: 0x1626ba7e when the owner or an approved signer signed `hash`, else 0xffffffff.
    /// Never reverts on a malformed signature.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        address signer = _recover(hash, signature);
        if (signer != address(0) && (_isOwner(signer) || isSigner[signer])) return ERC1271_VALID;
        return ERC1271_INVALID;
    }

    function setSigner(address signer, bool approved) external onlyOwnerOrSelf {
        isSigner[signer] = approved;
        emit SignerChanged(signer, approved);
    }

    /// @notice Lets the owner act as the account, e.g. to transfer a domain NFT it holds.
    function execute(address to, uint256 value, bytes calldata data) external onlyOwnerOrSelf returns (bytes memory) {
        (bool ok, bytes memory result) = to.call{value: value}(data);
        if (!ok) revert CallFailed(result);
        emit Executed(to, value, data);
        return result;
    }

    /// @notice Accepts domain NFTs sent with safeTransferFrom.
    function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC721Received.selector;
    }

    function _isOwner(address account) internal view returns (bool) {
        return account == address(this) || (owner != address(0) && account == owner);
    }

    /// @dev ECDSA recovery of a 65-byte (r, s, v) signature; address(0) for anything malformed.
    function _recover(bytes32 hash, bytes calldata signature) internal pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (v != 27 && v != 28) return address(0);
        if (uint256(s) > HALF_ORDER) return address(0);
        return ecrecover(hash, v, r, s);
    }
}
