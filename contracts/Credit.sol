// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/// @title Namefi credit
/// @notice The payment unit: an ERC-20 with 18 decimals, 1 credit = 1 USD.
/// The service (the owner) mints credit from the faucet and charges orders. A charge burns the order's price
/// from the payer: the person authorised the order itself with a signed request to the service, so a second
/// on-chain approval (an allowance) would add a step without adding consent. Each charge names its order, so
/// that charging an order twice (a retry after a crash) takes the money once, and refunds never return more than
/// that order took. Faucet grants name theirs too. The service's database is the journal of every grant, charge
/// and refund: the list of refs (`entries`) lets the service compare the chain with it after a crash, and the
/// owner-only `reconcile*` functions set an entry to what the database recorded (see docs/service/crash-safety.md).
contract Credit is ERC20, Ownable {
    event Charged(bytes32 indexed orderRef, address indexed payer, uint256 amount);
    event Refunded(bytes32 indexed orderRef, address indexed payer, uint256 amount);
    event Granted(bytes32 indexed ref, address indexed to, uint256 amount);
    event Reconciled(bytes32 indexed ref, address indexed account, uint256 shortfall);

    error InsufficientBalance(address account, uint256 balance, uint256 needed);
    error InvalidReceiver(address receiver);
    error ChargeMismatch(bytes32 orderRef);
    error UnknownCharge(bytes32 orderRef);
    error RefundTooLarge(bytes32 orderRef, uint256 charged, uint256 totalRefunded);
    error GrantMismatch(bytes32 ref);
    error LengthMismatch();

    struct Charge {
        address payer;
        uint256 amount;
        uint256 refunded;
    }

    struct Grant {
        address to;
        uint256 amount;
    }

    /// One ref as the chain holds it: a grant (`granted`), a charge (`charged`, `refunded`), or nothing any more.
    struct Entry {
        bytes32 ref;
        address account;
        uint256 granted;
        uint256 charged;
        uint256 refunded;
    }

    mapping(bytes32 => Charge) public charges;
    mapping(bytes32 => Grant) public grants;
    bytes32[] private _refs;
    mapping(bytes32 => bool) private _listed;

    constructor() ERC20("Namefi Credit", "NFC") Ownable(msg.sender) {}

    // ---- Service ----

    /// @notice The faucet: creates `amount` credit for `to`.
    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    /// @notice A faucet grant named by `ref`: granting the same ref again with the same wallet and amount changes
    /// nothing; with different ones it reverts.
    function grant(address to, uint256 amount, bytes32 ref) external onlyOwner {
        if (to == address(0)) revert InvalidReceiver(to);
        Grant storage existing = grants[ref];
        if (existing.to != address(0)) {
            if (existing.to != to || existing.amount != amount) revert GrantMismatch(ref);
            return;
        }
        grants[ref] = Grant(to, amount);
        _list(ref);
        _credit(to, amount);
        emit Granted(ref, to, amount);
    }

    /// @notice Takes an order's price from its payer. Charging the same order again with the same payer and amount
    /// changes nothing; with different ones it reverts.
    function charge(address payer, uint256 amount, bytes32 orderRef) external onlyOwner {
        if (payer == address(0)) revert InvalidReceiver(payer);
        Charge storage existing = charges[orderRef];
        if (existing.payer != address(0)) {
            if (existing.payer != payer || existing.amount != amount) revert ChargeMismatch(orderRef);
            return;
        }
        uint256 balance = balanceOf(payer);
        if (balance < amount) revert InsufficientBalance(payer, balance, amount);
        charges[orderRef] = Charge(payer, amount, 0);
        _list(orderRef);
        _burn(payer, amount);
        emit Charged(orderRef, payer, amount);
    }

    /// @notice Brings what this order gave back to its payer up to `totalRefunded` (at most what it was charged).
    /// Naming the total rather than a delta makes a repeated refund change nothing.
    function refund(bytes32 orderRef, uint256 totalRefunded) external onlyOwner {
        Charge storage existing = charges[orderRef];
        if (existing.payer == address(0)) revert UnknownCharge(orderRef);
        if (totalRefunded > existing.amount) revert RefundTooLarge(orderRef, existing.amount, totalRefunded);
        if (totalRefunded <= existing.refunded) return;
        uint256 amount = totalRefunded - existing.refunded;
        existing.refunded = totalRefunded;
        _mint(existing.payer, amount);
        emit Refunded(orderRef, existing.payer, amount);
    }

    // ---- Reconciliation with the service's journal ----

    /// @notice How many refs (grants and charges) the chain has seen.
    function entryCount() external view returns (uint256) {
        return _refs.length;
    }

    /// @notice The entries from `start`, at most `count` of them.
    function entries(uint256 start, uint256 count) external view returns (Entry[] memory list) {
        uint256 end = start + count > _refs.length ? _refs.length : start + count;
        list = new Entry[](end > start ? end - start : 0);
        for (uint256 i = start; i < end; i++) {
            bytes32 ref = _refs[i];
            Grant storage g = grants[ref];
            Charge storage c = charges[ref];
            list[i - start] = Entry(ref, g.to != address(0) ? g.to : c.payer, g.amount, c.amount, c.refunded);
        }
    }

    /// @notice Sets each grant to what the journal says (`to` zero or `amount` zero: no such grant), moving the
    /// balances by the difference. Credit already spent cannot be taken back: what is missing is the shortfall.
    function reconcileGrants(bytes32[] calldata refs, address[] calldata to, uint256[] calldata amounts) external onlyOwner {
        if (refs.length != to.length || refs.length != amounts.length) revert LengthMismatch();
        for (uint256 i = 0; i < refs.length; i++) {
            Grant memory old = grants[refs[i]];
            uint256 shortfall = old.to == address(0) ? 0 : _debit(old.to, old.amount);
            if (to[i] == address(0) || amounts[i] == 0) {
                delete grants[refs[i]];
            } else {
                grants[refs[i]] = Grant(to[i], amounts[i]);
                _list(refs[i]);
                _credit(to[i], amounts[i]);
            }
            emit Reconciled(refs[i], to[i], shortfall);
        }
    }

    /// @notice Sets each charge to what the journal says (`payer` zero: not charged, so a later `charge` takes it
    /// anew), moving the payer's balance by the difference.
    function reconcileCharges(bytes32[] calldata refs, address[] calldata payers, uint256[] calldata amounts, uint256[] calldata refunded)
        external
        onlyOwner
    {
        if (refs.length != payers.length || refs.length != amounts.length || refs.length != refunded.length) revert LengthMismatch();
        for (uint256 i = 0; i < refs.length; i++) {
            if (refunded[i] > amounts[i]) revert RefundTooLarge(refs[i], amounts[i], refunded[i]);
            Charge memory old = charges[refs[i]];
            if (old.payer != address(0)) _credit(old.payer, old.amount - old.refunded);
            uint256 shortfall = 0;
            if (payers[i] == address(0)) {
                delete charges[refs[i]];
            } else {
                charges[refs[i]] = Charge(payers[i], amounts[i], refunded[i]);
                _list(refs[i]);
                shortfall = _debit(payers[i], amounts[i] - refunded[i]);
            }
            emit Reconciled(refs[i], payers[i], shortfall);
        }
    }

    function _list(bytes32 ref) private {
        if (_listed[ref]) return;
        _listed[ref] = true;
        _refs.push(ref);
    }

    function _credit(address to, uint256 amount) private {
        if (amount > 0) _mint(to, amount);
    }

    /// Burns up to `amount` from `from`; returns what it could not burn.
    function _debit(address from, uint256 amount) private returns (uint256 shortfall) {
        uint256 balance = balanceOf(from);
        uint256 taken = balance < amount ? balance : amount;
        if (taken > 0) _burn(from, taken);
        return amount - taken;
    }
}
