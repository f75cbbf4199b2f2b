-- Expiry (ours): whether the zone answers the "expired" holding page (redemption). Set and cleared only by the
-- expiry worker's zone change (server/zones/expiry.ts), through the pipeline, so the serial moves and the history says so.
ALTER TABLE domains ADD COLUMN expired BOOLEAN NOT NULL DEFAULT false;
