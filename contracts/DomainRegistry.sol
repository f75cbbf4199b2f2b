// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice Receivers of `safeTransferFrom` answer this (ERC-721).
interface IERC721Receiver {
    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data)
        external
        returns (bytes4);
}

/// @title Namefi domain registry
/// @notice An ERC-721 in which each token is one domain name: tokenId = uint256(keccak256(bytes(name))).
/// Only the service (the owner) mints, when an order succeeds; the token carries the name and its expiry.
/// Holders transfer freely, and whoever holds the token may edit the domain's DNS.
/// @dev Keeps a per-owner index (swap-and-pop, as in ERC721Enumerable) so that `domainsOf` is one cheap call
/// that stays correct after transfers, with no event indexing on the service side.
contract DomainRegistry {
    struct Domain {
        uint256 tokenId;
        string name;
        uint64 expiresAt;
    }

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
    event DomainMinted(uint256 indexed tokenId, string name, address indexed to, uint64 expiresAt);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    error NotOwner();
    error NotAuthorized();
    error AlreadyRegistered(uint256 tokenId);
    error NonexistentToken(uint256 tokenId);
    error InvalidReceiver(address receiver);
    error WrongFrom(address from);
    error EmptyName();

    string public constant name = "Namefi Domain";
    string public constant symbol = "NFD";

    /// @notice The service: the only account that mints.
    address public owner;

    mapping(uint256 => address) private _ownerOf;
    mapping(address => uint256) private _balanceOf;
    mapping(uint256 => address) private _approved;
    mapping(address => mapping(address => bool)) private _operators;
    mapping(uint256 => string) private _names;
    mapping(uint256 => uint64) private _expiresAt;
    mapping(address => uint256[]) private _owned;
    /// @dev Position of a token in its owner's `_owned` list.
    mapping(uint256 => uint256) private _ownedIndex;

    constructor() {
        owner = msg.sender;
        emit OwnershipTransferred(address(0), msg.sender);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    // ---- ERC-165 ----

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 // ERC-165
            || interfaceId == 0x80ac58cd; // ERC-721
    }

    // ---- ERC-721 ----

    function balanceOf(address account) external view returns (uint256) {
        if (account == address(0)) revert InvalidReceiver(address(0));
        return _balanceOf[account];
    }

    function ownerOf(uint256 tokenId) public view returns (address holder) {
        holder = _ownerOf[tokenId];
        if (holder == address(0)) revert NonexistentToken(tokenId);
    }

    function getApproved(uint256 tokenId) external view returns (address) {
        ownerOf(tokenId);
        return _approved[tokenId];
    }

    function isApprovedForAll(address holder, address operator) public view returns (bool) {
        return _operators[holder][operator];
    }

    function approve(address spender, uint256 tokenId) external {
        address holder = ownerOf(tokenId);
        if (msg.sender != holder && !_operators[holder][msg.sender]) revert NotAuthorized();
        _approved[tokenId] = spender;
        emit Approval(holder, spender, tokenId);
    }

    function setApprovalForAll(address operator, bool approved) external {
        _operators[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        address holder = ownerOf(tokenId);
        if (holder != from) revert WrongFrom(from);
        if (to == address(0)) revert InvalidReceiver(to);
        if (msg.sender != holder && !_operators[holder][msg.sender] && msg.sender != _approved[tokenId]) {
            revert NotAuthorized();
        }
        delete _approved[tokenId];
        _removeFromOwner(from, tokenId);
        _addToOwner(to, tokenId);
        emit Transfer(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        safeTransferFrom(from, to, tokenId, "");
    }

    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public {
        transferFrom(from, to, tokenId);
        _checkReceiver(from, to, tokenId, data);
    }

    // ---- Domains ----

    /// @notice Mints the domain `domainName` to `to`, expiring at `expiry` (Unix seconds). Service only.
    function mint(address to, string calldata domainName, uint64 expiry) external onlyOwner returns (uint256 tokenId) {
        if (bytes(domainName).length == 0) revert EmptyName();
        if (to == address(0)) revert InvalidReceiver(to);
        tokenId = tokenIdOf(domainName);
        if (_ownerOf[tokenId] != address(0)) revert AlreadyRegistered(tokenId);
        _names[tokenId] = domainName;
        _expiresAt[tokenId] = expiry;
        _addToOwner(to, tokenId);
        emit Transfer(address(0), to, tokenId);
        emit DomainMinted(tokenId, domainName, to, expiry);
    }

    function tokenIdOf(string calldata domainName) public pure returns (uint256) {
        return uint256(keccak256(bytes(domainName)));
    }

    function nameOf(uint256 tokenId) external view returns (string memory) {
        ownerOf(tokenId);
        return _names[tokenId];
    }

    function expiresAt(uint256 tokenId) external view returns (uint64) {
        ownerOf(tokenId);
        return _expiresAt[tokenId];
    }

    /// @notice The holder and expiry of a name; holder is the zero address when the name was never minted.
    /// @dev Does not revert, so a lookup of an unregistered name is an answer rather than an error.
    function domainByName(string calldata domainName)
        external
        view
        returns (address holder, uint256 tokenId, uint64 expiry)
    {
        tokenId = tokenIdOf(domainName);
        return (_ownerOf[tokenId], tokenId, _expiresAt[tokenId]);
    }

    function tokensOf(address holder) external view returns (uint256[] memory) {
        return _owned[holder];
    }

    /// @notice Every domain `holder` holds now, with names and expiries, in one call.
    function domainsOf(address holder) external view returns (Domain[] memory domains) {
        uint256[] storage ids = _owned[holder];
        domains = new Domain[](ids.length);
        for (uint256 i = 0; i < ids.length; i++) {
            domains[i] = Domain(ids[i], _names[ids[i]], _expiresAt[ids[i]]);
        }
    }

    // ---- Internals ----

    function _addToOwner(address to, uint256 tokenId) private {
        _ownerOf[tokenId] = to;
        _balanceOf[to] += 1;
        _ownedIndex[tokenId] = _owned[to].length;
        _owned[to].push(tokenId);
    }

    function _removeFromOwner(address from, uint256 tokenId) private {
        uint256[] storage list = _owned[from];
        uint256 index = _ownedIndex[tokenId];
        uint256 last = list[list.length - 1];
        list[index] = last;
        _ownedIndex[last] = index;
        list.pop();
        delete _ownedIndex[tokenId];
        _balanceOf[from] -= 1;
        delete _ownerOf[tokenId];
    }

    function _checkReceiver(address from, address to, uint256 tokenId, bytes memory data) private {
        if (to.code.length == 0) return;
        try IERC721Receiver(to).onERC721Received(msg.sender, from, tokenId, data) returns (bytes4 answer) {
            if (answer != IERC721Receiver.onERC721Received.selector) revert InvalidReceiver(to);
        } catch {
            revert InvalidReceiver(to);
        }
    }
}
