-- URL forwarding (ours): one setting per domain, kept on the domain's row so that every read of a zone's state (its
-- managed records) sees it in the same statement as parking. A domain never forwarded has the contract's defaults.
ALTER TABLE domains ADD COLUMN forward_enabled BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE domains ADD COLUMN forward_target TEXT NOT NULL DEFAULT '';
ALTER TABLE domains ADD COLUMN forward_status INTEGER NOT NULL DEFAULT 301;
ALTER TABLE domains ADD COLUMN forward_keep_path BOOLEAN NOT NULL DEFAULT true;
