-- A scoped key's TSIG form (contract: The standard doors): its DNS name, and its secret sealed with SECRETS_KEY when
-- the service has one (server/auth/secrets.ts; HMAC needs the secret itself, so it cannot be hashed like the key).
-- The door the key last came through ('rest', 'mcp', 'rfc2136', 'dyndns2'), shown beside last_used_at.
ALTER TABLE api_keys ADD COLUMN tsig_key_name TEXT UNIQUE;
ALTER TABLE api_keys ADD COLUMN tsig_secret TEXT;
ALTER TABLE api_keys ADD COLUMN last_used_via TEXT;
