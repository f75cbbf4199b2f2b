-- When a signed zone's signatures start (less an hour for clock skew) and from which they run 14 days. Every
-- signature of the zone is dated from here, so every instance, and the same instance after a restart, serves
-- signatures good until the same moment; a renewal moves it and the zone's serial in one statement, which is what
-- makes secondaries transfer the renewed signatures (server/dnssec/renewal.ts).
ALTER TABLE dnssec_keys ADD COLUMN signing_epoch TIMESTAMPTZ NOT NULL DEFAULT now();
