// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Namefi credit
/// @notice The payment unit: an ERC-20 with 18 decimals, 1 credit = 1 USD.
/// The service (the owner) mints credit from the faucet and charges orders. A charge burns the order's price
/// from the payer: the person authorised the order itself with a signed request to the service, so a second
/// on-chain approval (an allowance) would add a step without adding consent. Each charge names its order, so
/// that charging an order twice (a retry after a crash) takes the money once, and refunds never return more than
/// that order took.
contract Credit {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Charged(bytes32 indexed orderRef, address indexed payer, uint256 amount);
    event Refunded(bytes32 indexed orderRef, address indexed payer, uint256 amount);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    error NotOwner();
    error InsufficientBalance(address account, uint256 balance, uint256 needed);
    error InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
    error InvalidReceiver(address receiver);
    error ChargeMismatch(bytes32 orderRef);
    error UnknownCharge(bytes32 orderRef);
    error RefundTooLarge(bytes32 orderRef, uint256 charged, uint256 totalRefunded);

    struct Charge {
        address payer;
        uint256 amount;
        uint256 refunded;
    }

    string public constant name = "Namefi Credit";
    string public constant symbol = "NFC";
    uint8 public constant decimals = 18;

    address public owner;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(bytes32 => Charge) public charges;

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

    // ---- ERC-20 ----

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert InsufficientAllowance(msg.sender, allowed, amount);
            allowance[from][msg.sender] = allowed - amount;
        }
        _transfer(from, to, amount);
        return true;
    }

    // ---- Service ----

    /// @notice The faucet: creates `amount` credit for `to`.
    function mint(address to, uint256 amount) external onlyOwner {
        if (to == address(0)) revert InvalidReceiver(to);
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
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
        uint256 balance = balanceOf[payer];
        if (balance < amount) revert InsufficientBalance(payer, balance, amount);
        charges[orderRef] = Charge(payer, amount, 0);
        balanceOf[payer] = balance - amount;
        totalSupply -= amount;
        emit Transfer(payer, address(0), amount);
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
        totalSupply += amount;
        balanceOf[existing.payer] += amount;
        emit Transfer(address(0), existing.payer, amount);
        emit Refunded(orderRef, existing.payer, amount);
    }

    function _transfer(address from, address to, uint256 amount) private {
        if (to == address(0)) revert InvalidReceiver(to);
        uint256 balance = balanceOf[from];
        if (balance < amount) revert InsufficientBalance(from, balance, amount);
        balanceOf[from] = balance - amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
