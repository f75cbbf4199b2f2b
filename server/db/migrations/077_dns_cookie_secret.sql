-- The master secret of DNS cookies (RFC 7873, RFC 9018; server/dns-server/cookies.cjs): one row, made by the first
-- instance that starts (INSERT ... ON CONFLICT DO NOTHING, then read back), so every instance on this database, and
-- every UDP thread of each, makes and accepts the same server cookies. The secret of each period is derived from it.
CREATE TABLE dns_cookie_secret (
  id integer PRIMARY KEY CHECK (id = 1),
  secret text NOT NULL
);
