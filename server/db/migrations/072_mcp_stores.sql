-- The MCP server's plans, quotes and spending answers (ours; contract: Agents), kept here rather than in one
-- instance's memory, so a plan previewed on one instance is applied on another and a retried purchase is answered
-- once, whichever instance it reaches. Each row lives minutes (plans 10, quotes 5) or a day (spends); expired rows
-- are swept on use. `holder` is the hash of the API key, never the key.
CREATE TABLE mcp_plans (
  id TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  body JSONB NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE mcp_quotes (
  id TEXT PRIMARY KEY,
  body JSONB NOT NULL,
  used BOOLEAN NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
);
-- One row per (holder, idempotency key): the first call inserts it, its answer lands in `answer`; a failed call
-- deletes it (nothing was charged), so the key may be used again.
CREATE TABLE mcp_spends (
  holder TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  what TEXT NOT NULL,
  answer JSONB,
  started_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (holder, idempotency_key)
);
