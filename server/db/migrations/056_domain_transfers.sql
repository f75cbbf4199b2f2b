-- Transfers of a domain's token, as the service read them from the chain (ours). One row per Transfer log of the
-- registry: the key (chain, transaction, log index) makes recording one exactly-once, whichever instance reads it
-- first and however often a follower reads the same blocks again. The row is written in the transaction of the
-- transfer's history entry (server/zones/transfers.ts), so the two stand or fall together.
CREATE TABLE domain_transfers (
  chain_id INTEGER NOT NULL,
  tx_hash TEXT NOT NULL,
  log_index INTEGER NOT NULL,
  zone_name TEXT NOT NULL REFERENCES domains (name) ON DELETE CASCADE,
  from_address TEXT NOT NULL,
  to_address TEXT NOT NULL,
  block_number BIGINT NOT NULL,
  recorded_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (chain_id, tx_hash, log_index)
);

-- How far each registry's Transfer logs have been read: the last block read, per registry contract. Instances that
-- share a database share it; each moves it forward only (GREATEST), and reading a block twice records nothing twice.
CREATE TABLE chain_follow_cursor (
  registry TEXT PRIMARY KEY,
  chain_id INTEGER NOT NULL,
  last_block BIGINT NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);
