-- ALIAS (ours; contract: "What people keep another DNS account for"): the addresses an ALIAS record's target had when
-- last resolved, served as A/AAAA at the ALIAS's name (the name server answers them, signs them in a signed zone and
-- transfers them: flattened). Written only by the ALIAS refresher's zone change (server/zones/alias.ts) through the
-- pipeline, so a change of a target's addresses moves the serial and the history holds it; dropped with the ALIAS by
-- the records command. `target` is the ALIAS's data they were resolved for; `ttl` the ALIAS record's own.
CREATE TABLE alias_addresses (
  zone_name TEXT NOT NULL REFERENCES domains (name) ON DELETE CASCADE,
  name TEXT NOT NULL,
  target TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('A', 'AAAA')),
  rdata TEXT NOT NULL,
  ttl INTEGER NOT NULL,
  PRIMARY KEY (zone_name, name, type, rdata)
);
-- The refresher lists every ALIAS record each round: a partial index keeps that small whatever the zones hold.
CREATE INDEX dns_records_alias ON dns_records (zone_name) WHERE type = 'ALIAS';
