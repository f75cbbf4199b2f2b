-- Domains and their owners: the in-database ownership registry (an on-chain one can replace it behind server/ownership).
CREATE TABLE domains (
  name TEXT PRIMARY KEY,
  owner_address TEXT NOT NULL,
  token_id TEXT NOT NULL,
  chain_id INTEGER NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  parked BOOLEAN NOT NULL DEFAULT true,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX domains_owner ON domains (owner_address);

CREATE TABLE dns_records (
  id UUID PRIMARY KEY,
  zone_name TEXT NOT NULL,
  name TEXT NOT NULL,
  type TEXT NOT NULL,
  class TEXT NOT NULL DEFAULT 'IN',
  ttl INTEGER NOT NULL,
  rdata TEXT NOT NULL,
  metadata JSONB,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX dns_records_zone ON dns_records (zone_name, name, type);

-- Wallet addresses are stored lowercase everywhere.
CREATE TABLE api_keys (
  id UUID PRIMARY KEY,
  wallet_address TEXT NOT NULL,
  label TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_used_at TIMESTAMPTZ,
  revoked_at TIMESTAMPTZ
);
CREATE INDEX api_keys_wallet ON api_keys (wallet_address);

CREATE TABLE siwe_nonces (
  nonce TEXT PRIMARY KEY,
  address TEXT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  used_at TIMESTAMPTZ
);

CREATE TABLE siwe_sessions (
  token_hash TEXT PRIMARY KEY,
  address TEXT NOT NULL,
  chain_id INTEGER NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  expires_at TIMESTAMPTZ NOT NULL
);

-- EIP-712 envelope nonces, single use per signer, kept until their timestamp has left the window.
CREATE TABLE envelope_nonces (
  signer TEXT NOT NULL,
  nonce TEXT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (signer, nonce)
);

CREATE TABLE balances (
  wallet_address TEXT PRIMARY KEY,
  balance_cents BIGINT NOT NULL DEFAULT 0,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE faucet_grants (
  id UUID PRIMARY KEY,
  wallet_address TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  granted_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX faucet_grants_wallet ON faucet_grants (wallet_address, granted_at);

CREATE TABLE orders (
  id UUID PRIMARY KEY,
  wallet_address TEXT NOT NULL,
  status TEXT NOT NULL,
  amount_cents BIGINT NOT NULL,
  nft_wallet_address TEXT NOT NULL,
  nft_chain_id INTEGER NOT NULL,
  metadata JSONB,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  started_at TIMESTAMPTZ,
  finished_at TIMESTAMPTZ
);
CREATE INDEX orders_wallet ON orders (wallet_address, created_at);
CREATE INDEX orders_status ON orders (status);

CREATE TABLE order_items (
  id UUID PRIMARY KEY,
  order_id UUID NOT NULL REFERENCES orders (id),
  normalized_domain_name TEXT NOT NULL,
  type TEXT NOT NULL DEFAULT 'REGISTER',
  duration_in_years INTEGER NOT NULL,
  amount_cents BIGINT NOT NULL,
  status TEXT NOT NULL,
  initial_records JSONB,
  metadata JSONB,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX order_items_order ON order_items (order_id);
CREATE INDEX order_items_domain ON order_items (normalized_domain_name, status);

CREATE TABLE payments (
  id UUID PRIMARY KEY,
  order_id UUID NOT NULL REFERENCES orders (id),
  amount_cents BIGINT NOT NULL,
  status TEXT NOT NULL,
  payment_provider TEXT NOT NULL DEFAULT 'CREDIT',
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX payments_order ON payments (order_id);
