-- Each signed set's RRSIG, kept with the zone (issue 37): a restart or a second instance reuses it instead of signing
-- the zone again, and every instance serves the same RRSIG bytes (ECDSA signatures are randomised). `digest` is
-- SHA-256 of the DNSKEY and of the bytes the RRSIG signs (owner and type included) (its header: type, labels, TTL, validity from the zone's
-- signing epoch, key tag; then the canonical set): a set, key or epoch that differs is another row. First writer
-- wins (INSERT ... ON CONFLICT DO NOTHING, then read back). Rows of an earlier epoch are deleted once a zone is
-- signed from a later one (server/dns-server/zone-snapshot.ts).
CREATE TABLE dnssec_signatures (
  zone_name text NOT NULL REFERENCES domains (name) ON DELETE CASCADE,
  owner text NOT NULL,
  type integer NOT NULL,
  digest bytea NOT NULL,
  expiration bigint NOT NULL,
  rrsig bytea NOT NULL,
  PRIMARY KEY (zone_name, digest)
);
