// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SmartAccount} from "./SmartAccount.sol";

/// @title SmartAccount factory
/// @notice Deploys accounts with CREATE2, so an account's address is known before it exists: its owner can sign
/// as it right away, and a verifier deploys it on the fly through ERC-6492 (factory + `createAccount` calldata).
/// Also deploys one ownerless SmartAccount as the EIP-7702 delegation target for EOAs.
contract SmartAccountFactory {
    event AccountCreated(address indexed account, address indexed owner, bytes32 salt);

    /// @notice Code for EOAs to delegate to with EIP-7702.
    address public immutable implementation;

    constructor() {
        implementation = address(new SmartAccount(address(0)));
    }

    /// @notice Deploys the account of `owner` for `salt`, or returns it when it already exists.
    function createAccount(address owner, bytes32 salt) external returns (address account) {
        account = getAddress(owner, salt);
        if (account.code.length > 0) return account;
        new SmartAccount{salt: _salt(owner, salt)}(owner);
        emit AccountCreated(account, owner, salt);
    }

    function getAddress(address owner, bytes32 salt) public view returns (address) {
        bytes32 initCodeHash = keccak256(abi.encodePacked(type(SmartAccount).creationCode, abi.encode(owner)));
        bytes32 digest = keccak256(abi.encodePacked(bytes1(0xff), address(this), _salt(owner, salt), initCodeHash));
        return address(uint160(uint256(digest)));
    }

    /// @dev The owner is part of the salt, so nobody can take another owner's address for a salt.
    function _salt(address owner, bytes32 salt) private pure returns (bytes32) {
        return keccak256(abi.encode(owner, salt));
    }
}
