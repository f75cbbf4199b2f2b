-- Contract accounts made on the chain the service owns, as its journal: a smart account (or any contract) created by a
-- factory call, and an EOA's EIP-7702 delegation. Wallets and tests make them straight on the chain; the service sees
-- each block as it is mined and records them here, so a start after a kill -9 that lost the chain's last seconds
-- (the state file is saved every CHAIN_STATE_INTERVAL_S) makes them again (server/chain/account-journal.ts).
CREATE TABLE chain_account_journal (
  -- 'deployment:<account>' or 'delegation:<eoa>:<authorization nonce>': one entry per account made, per authorisation.
  entry_key TEXT PRIMARY KEY,
  chain_id BIGINT NOT NULL,
  kind TEXT NOT NULL,
  account TEXT NOT NULL,
  -- A deployment: the factory call that created it, and the hash of the code it left.
  call_to TEXT,
  call_data TEXT,
  code_hash TEXT,
  -- A delegation: the EOA's signed authorisation ({address, chainId, nonce, r, s, yParity}).
  signed_authorization JSONB,
  transaction_hash TEXT NOT NULL,
  block_number BIGINT NOT NULL,
  position INTEGER NOT NULL,
  recorded_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX chain_account_journal_order ON chain_account_journal (chain_id, block_number, position);
