-- How a signed zone proves absence (issue 49 item 5): NSEC (the default) or NSEC3 with RFC 9276's parameters (SHA-1,
-- no extra iterations, no salt), optionally opted out (unsigned delegations left out of the chain). The owner's
-- choice, made with the same switch that signs the zone (toggleDnssec).
ALTER TABLE dnssec_keys ADD COLUMN denial TEXT NOT NULL DEFAULT 'nsec' CHECK (denial IN ('nsec', 'nsec3'));
ALTER TABLE dnssec_keys ADD COLUMN nsec3_opt_out BOOLEAN NOT NULL DEFAULT false;
