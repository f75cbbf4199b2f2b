-- The MACs of the DNS UPDATE messages received in the last minutes (contract: The standard doors): a signed message
-- seen twice is a replay, refused on whichever instance it reaches. Kept for twice TSIG's fudge (300 s), then pruned.
CREATE TABLE tsig_seen (
  mac TEXT PRIMARY KEY,
  seen_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX tsig_seen_at ON tsig_seen (seen_at);
