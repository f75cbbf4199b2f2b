-- The auto-renew worker (server/renewal/): when a domain short of credit is tried next (daily), and one claim per
-- (domain, expiry) it renews: the claim is written in the transaction that creates the renewal order, so two
-- instances, or one restarted after kill -9, never both order (and charge) the renewal of the same expiry.
ALTER TABLE auto_renew ADD COLUMN next_try_at TIMESTAMPTZ;
CREATE TABLE auto_renew_claims (
  domain_name TEXT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  order_id UUID NOT NULL,
  claimed_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (domain_name, expires_at)
);
