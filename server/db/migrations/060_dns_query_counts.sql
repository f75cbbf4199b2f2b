-- Query analytics (ours, contract: Analytics): what the name server answered, per zone, counted in memory by each
-- instance and added here on every flush (an upsert adds, so instances sum). One row per zone, step and bucket: the
-- minute's row and, rolled up as they are flushed, its hour's and its day's (UTC), so a month is read as 31 day rows
-- or 744 hour rows rather than 44,640 minutes. The by_* columns map a key to a count ({"A": 37}); names maps
-- "name TYPE ANSWER" (the name relative to the zone) to a count, at most 100 a minute per zone, the rest in "other".
-- No client address is ever written. Rows older than ANALYTICS_DAYS are deleted by the flushing instance.
CREATE TABLE dns_query_counts (
  zone_name TEXT NOT NULL,
  step TEXT NOT NULL CHECK (step IN ('1m', '1h', '1d')),
  at TIMESTAMPTZ NOT NULL,
  total BIGINT NOT NULL,
  by_type JSONB NOT NULL,
  by_rcode JSONB NOT NULL,
  by_transport JSONB NOT NULL,
  dnssec_ok BIGINT NOT NULL,
  names JSONB NOT NULL,
  other BIGINT NOT NULL,
  PRIMARY KEY (zone_name, step, at)
);

CREATE INDEX dns_query_counts_at ON dns_query_counts (at);

-- Two count maps added key by key.
CREATE OR REPLACE FUNCTION jsonb_add_counts(a JSONB, b JSONB) RETURNS JSONB LANGUAGE sql IMMUTABLE AS $$ SELECT coalesce(jsonb_object_agg(key, n), '{}'::jsonb) FROM (SELECT key, sum(value::bigint) AS n FROM (SELECT key, value FROM jsonb_each_text(a) UNION ALL SELECT key, value FROM jsonb_each_text(b)) e GROUP BY key) s $$;
