-- What a start must compare with the chain (server/chain/chain-ownership.ts restoreMissingMints). Each domain row
-- notes the block of the chain write that holds its mint or expiry (NULL: not known), and each registry the block
-- the last start left the chain at, with its hash. A chain that still holds that block with that hash holds every
-- block before it unchanged, so only the rows noted after it (or not at all) need reading from the chain: a start no
-- longer reads every domain from the chain (issue 50: start-up that does not depend on the number of zones).
ALTER TABLE domains ADD COLUMN IF NOT EXISTS chain_block BIGINT;
CREATE INDEX IF NOT EXISTS domains_chain_block ON domains (chain_block);
CREATE TABLE IF NOT EXISTS chain_marks (
  registry TEXT PRIMARY KEY,
  block BIGINT NOT NULL,
  hash TEXT NOT NULL
);
