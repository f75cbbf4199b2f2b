-- Every accepted change of a zone, one row per change, written in the change's own transaction (contract: History).
-- `entry` is the rest of the HistoryEntry as JSON text (actor, changes, parking, signed), kept as text so that the
-- signed envelope keeps the form it was received in and a page is served without re-encoding. Zones are read
-- newest first a page at a time: the index makes each page one range scan, whatever the history's length.
CREATE TABLE zone_history (
  id BIGSERIAL PRIMARY KEY,
  zone_name TEXT NOT NULL,
  serial BIGINT NOT NULL,
  at TIMESTAMPTZ NOT NULL,
  operation TEXT NOT NULL,
  entry TEXT NOT NULL
);
CREATE INDEX zone_history_by_zone ON zone_history (zone_name, id DESC);
