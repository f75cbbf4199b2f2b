// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC4337} from "solady/src/accounts/ERC4337.sol";
import {ERC4337Factory} from "solady/src/accounts/ERC4337Factory.sol";

/// @title Solady's ERC-4337 account, as viem's `toSoladySmartAccount` drives it
/// @notice All behaviour is Solady's (npm `solady` 0.0.288): owner-signed user operations for EntryPoint v0.7,
/// and ERC-1271 through ERC-7739 (the owner signs the hash nested in `TypedDataSign` or `PersonalSign` under this
/// account's EIP-712 domain, so one owner signature is never valid for another account).
/// @dev Solady leaves only the EIP-712 domain name and version to the deployer.
contract SoladyAccount is ERC4337 {
    function _domainNameAndVersion() internal pure override returns (string memory name, string memory version) {
        return ("SoladyAccount", "1");
    }
}

/// @title Solady's ERC4337Factory, named for the artifacts
/// @notice `createAccount(owner, salt)` (the ERC-6492 factory call) deploys a minimal ERC-1967 proxy to the
/// implementation with CREATE2; the salt must start with the owner's address (or be zero-prefixed).
contract SoladyAccountFactory is ERC4337Factory {
    constructor(address erc4337) payable ERC4337Factory(erc4337) {}
}
