-- Auto-renew (ours): one setting per domain, written by its owner (setAutoRenew). A domain without a row has the
-- contract's defaults (off, 1 year). `set_by` is the wallet that wrote it: the setting holds only while that wallet
-- owns the domain, so a domain that moved to another holder does not spend the new holder's credit. The last_attempt_*
-- columns are for the renewal worker, which does not exist yet (renewal orders come first): they stay NULL until it does.
CREATE TABLE auto_renew (
  domain_name TEXT PRIMARY KEY REFERENCES domains (name) ON DELETE CASCADE,
  enabled BOOLEAN NOT NULL,
  duration_in_years INTEGER NOT NULL CHECK (duration_in_years BETWEEN 1 AND 10),
  set_by TEXT NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  last_attempt_at TIMESTAMPTZ,
  last_attempt_outcome TEXT CHECK (last_attempt_outcome IN ('renewed', 'short-of-credit', 'failed')),
  last_attempt_order_id TEXT,
  last_attempt_reason TEXT
);
