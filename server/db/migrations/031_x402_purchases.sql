-- x402 purchases: one row per EIP-3009 authorization the service accepted for settlement. The unique
-- (payer, authorization_nonce) is the service's own record that an authorization is used, beside the token's
-- nonce state: a replay, also for another name, finds the row and is refused before anything is settled.
CREATE TABLE x402_purchases (
  id UUID PRIMARY KEY,
  payer TEXT NOT NULL,
  authorization_nonce TEXT NOT NULL,
  normalized_domain_name TEXT NOT NULL,
  duration_in_years INTEGER NOT NULL,
  nft_receiving_wallet_address TEXT NOT NULL,
  amount_units TEXT NOT NULL,
  network TEXT NOT NULL,
  asset TEXT NOT NULL,
  status TEXT NOT NULL,
  order_id UUID REFERENCES orders (id),
  settlement_tx TEXT,
  refund_tx TEXT,
  refund_units TEXT,
  failure_reason TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX x402_purchases_authorization ON x402_purchases (payer, authorization_nonce);
CREATE INDEX x402_purchases_order ON x402_purchases (order_id);
