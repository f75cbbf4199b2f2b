-- The x402 purchase's intent, written before the payment is settled: the EIP-3009 authorization exactly as the payer
-- signed it (from, to, value, validAfter, validBefore, nonce) and its signature. With it a purchase found between
-- states at start-up is finished from what the chain says of that authorization, and a settlement the chain lost
-- (its state saved before it) is sent again. Rows from before this column keep NULL.
ALTER TABLE x402_purchases ADD COLUMN payment JSONB;
-- Purchases recovered at start-up with nothing taken end FAILED; the live path's statuses are unchanged.
CREATE INDEX x402_purchases_status ON x402_purchases (status) WHERE status = 'SETTLING';
