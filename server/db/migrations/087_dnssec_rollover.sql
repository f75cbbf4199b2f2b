-- An algorithm rollover of a signed zone (RFC 6781 §4.1.4, the conservative order): the key of the new algorithm
-- beside the zone's key in dnssec_keys, and the step the rollover has reached. While a row is here the zone is
-- signed with both keys; which DNSKEY, CDS and CDNSKEY it publishes follows the phase (server/dnssec/rollover.ts).
-- The last step makes the new key the zone's key and deletes this row. The private key, like dnssec_keys', never
-- leaves the database except into a signer's memory.
CREATE TABLE dnssec_rollovers (
  zone_name TEXT PRIMARY KEY REFERENCES dnssec_keys (zone_name) ON DELETE CASCADE,
  public_key TEXT NOT NULL,
  private_key TEXT NOT NULL,
  phase TEXT NOT NULL CHECK (phase IN ('new-rrsigs', 'new-dnskey', 'new-ds', 'ds-changed', 'dnskey-removal')),
  -- When the zone entered the phase: the waits RFC 6781 asks for run from here.
  phase_since TIMESTAMPTZ NOT NULL,
  -- When the next step is due (null: it waits for the owner to say the parent holds the new DS).
  due_at TIMESTAMPTZ
);
CREATE INDEX dnssec_rollovers_due ON dnssec_rollovers (due_at) WHERE due_at IS NOT NULL;
