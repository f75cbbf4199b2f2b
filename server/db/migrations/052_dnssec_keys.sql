-- One combined DNSSEC signing key per signed zone (ECDSA P-256, algorithm 13, flags 257). A zone is signed while
-- it has a row here. The private key (PKCS#8, base64) never leaves the database except into a signer's memory;
-- no query that answers a client selects it.
CREATE TABLE dnssec_keys (
  zone_name TEXT PRIMARY KEY REFERENCES domains (name) ON DELETE CASCADE,
  algorithm SMALLINT NOT NULL DEFAULT 13,
  flags INTEGER NOT NULL DEFAULT 257,
  public_key TEXT NOT NULL,
  private_key TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
