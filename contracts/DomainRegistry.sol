// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721Enumerable} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721Enumerable.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title Namefi domain registry
/// @notice An ERC-721 in which each token is one domain name: tokenId = uint256(keccak256(bytes(name))).
/// Only the service (the owner) mints, when an order succeeds; the token carries the name and its expiry.
/// Holders transfer freely, and whoever holds the token may edit the domain's DNS.
/// @dev OpenZeppelin's ERC721Enumerable keeps the per-holder index, so that `domainsOf` is one cheap call that
/// stays correct after transfers, with no event indexing on the service side.
contract DomainRegistry is ERC721Enumerable, Ownable {
    struct Domain {
        uint256 tokenId;
        string name;
        uint64 expiresAt;
    }

    event DomainMinted(uint256 indexed tokenId, string name, address indexed to, uint64 expiresAt);
    event DomainRenewed(uint256 indexed tokenId, uint64 expiresAt);
    event DomainReleased(uint256 indexed tokenId, string name);

    error AlreadyRegistered(uint256 tokenId);
    error EmptyName();

    mapping(uint256 => string) private _names;
    mapping(uint256 => uint64) private _expiresAt;

    constructor() ERC721("Namefi Domain", "NFD") Ownable(msg.sender) {}

    /// @notice Mints the domain `domainName` to `to`, expiring at `expiry` (Unix seconds). Service only.
    function mint(address to, string calldata domainName, uint64 expiry) external onlyOwner returns (uint256 tokenId) {
        if (bytes(domainName).length == 0) revert EmptyName();
        tokenId = tokenIdOf(domainName);
        if (_ownerOf(tokenId) != address(0)) revert AlreadyRegistered(tokenId);
        _names[tokenId] = domainName;
        _expiresAt[tokenId] = expiry;
        _mint(to, tokenId);
        emit DomainMinted(tokenId, domainName, to, expiry);
    }

    /// @notice Burns the domain `domainName` when it is released after its redemption period: the name is
    /// available again and its next registration mints a new token. Service only; reverts for a name no one holds.
    function burn(string calldata domainName) external onlyOwner {
        uint256 tokenId = tokenIdOf(domainName);
        _requireOwned(tokenId);
        delete _names[tokenId];
        delete _expiresAt[tokenId];
        _burn(tokenId);
        emit DomainReleased(tokenId, domainName);
    }

    /// @notice Sets the expiry of the registered `domainName` to `expiry` (Unix seconds): a paid renewal. Service only.
    /// @dev An absolute value, not a number of years, so a retried renewal (its transaction mined, the service's
    /// record of it lost in a crash) sets the same expiry again instead of extending it twice.
    function setExpiry(string calldata domainName, uint64 expiry) external onlyOwner {
        uint256 tokenId = tokenIdOf(domainName);
        _requireOwned(tokenId);
        _expiresAt[tokenId] = expiry;
        emit DomainRenewed(tokenId, expiry);
    }

    function tokenIdOf(string calldata domainName) public pure returns (uint256) {
        return uint256(keccak256(bytes(domainName)));
    }

    function nameOf(uint256 tokenId) external view returns (string memory) {
        _requireOwned(tokenId);
        return _names[tokenId];
    }

    function expiresAt(uint256 tokenId) external view returns (uint64) {
        _requireOwned(tokenId);
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
        return (_ownerOf(tokenId), tokenId, _expiresAt[tokenId]);
    }

    /// @dev The zero address holds nothing (rather than reverting, as `balanceOf` does).
    function tokensOf(address holder) public view returns (uint256[] memory ids) {
        ids = new uint256[](holder == address(0) ? 0 : balanceOf(holder));
        for (uint256 i = 0; i < ids.length; i++) {
            ids[i] = tokenOfOwnerByIndex(holder, i);
        }
    }

    /// @notice Every domain `holder` holds now, with names and expiries, in one call.
    function domainsOf(address holder) external view returns (Domain[] memory domains) {
        uint256[] memory ids = tokensOf(holder);
        domains = new Domain[](ids.length);
        for (uint256 i = 0; i < ids.length; i++) {
            domains[i] = Domain(ids[i], _names[ids[i]], _expiresAt[ids[i]]);
        }
    }
}
