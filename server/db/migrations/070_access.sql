-- Access (ours; contract: Access): grants of a zone to other wallets, each the owner's signed object. A grant holds
-- only while `granted_by` owns the domain (checked at use, in the same transaction as the change); a released domain
-- takes its grants with it (ON DELETE CASCADE), and a transfer revokes them (server/zones/transfers.ts).
CREATE TABLE zone_grants (
  id UUID PRIMARY KEY,
  zone_name TEXT NOT NULL REFERENCES domains (name) ON DELETE CASCADE,
  grantee TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'manager')),
  names JSONB NOT NULL,
  types JSONB NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  granted_by TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  revoked_at TIMESTAMPTZ,
  -- Who ended it: 'owner', 'grantee' (gave it up) or 'transfer' (the domain moved to another holder).
  ended_by TEXT,
  signed JSONB NOT NULL
);
CREATE INDEX zone_grants_zone ON zone_grants (zone_name, grantee);
CREATE INDEX zone_grants_grantee ON zone_grants (grantee) WHERE revoked_at IS NULL;

-- A scoped API key's limits (zones, names, types, access, expiresAt, cidrs); NULL: the old, unlimited key.
ALTER TABLE api_keys ADD COLUMN scope JSONB;
