-- A compact, ready-to-serve form of each zone (issue 50): the stored part of what the name server answers (the zone's
-- records in written order and its ALIAS targets' addresses), as JSON text, written by the zone-change pipeline in the
-- transaction of each change. A cold query reads it with the zone's row in one indexed read instead of gathering the
-- records. It is the zone's only while `version` is the zone's `zone_version` (NULL: the zone never changed since it
-- was added); otherwise the name server builds the zone from its records and writes the form again. The SOA, NS and
-- managed records (parking, forwarding) are not in it: they come from the settings of the instance that answers.
CREATE TABLE zone_forms (
  zone_name TEXT PRIMARY KEY REFERENCES domains (name) ON DELETE CASCADE,
  version UUID,
  form TEXT NOT NULL
);

-- The catalog zone's journal (RFC 9432 catalog, server/dns-server/catalog.ts): one row per zone added or removed, its
-- `serial` the catalog's serial that change led from (the catalog's serial is the last one plus one). IXFR of the
-- catalog reads the rows since a secondary's serial (one zone's line per change, not the whole catalog), and the
-- catalog's serial is one indexed read, not a count of every zone. A transaction lock orders the serials as their
-- transactions commit, so no secondary can be told a serial before a smaller one is written. The zones held before
-- this migration are its first rows, so the serial goes on from the count it was (the number of zones plus one).
CREATE TABLE catalog_changes (
  serial BIGINT PRIMARY KEY,
  zone_name TEXT NOT NULL,
  added BOOLEAN NOT NULL
);
INSERT INTO catalog_changes (serial, zone_name, added) SELECT row_number() OVER (ORDER BY name), name, true FROM domains;
CREATE FUNCTION catalog_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_advisory_xact_lock(9432); INSERT INTO catalog_changes (serial, zone_name, added) SELECT COALESCE(max(serial), 0) + 1, COALESCE(NEW.name, OLD.name), TG_OP = 'INSERT' FROM catalog_changes; RETURN NULL; END $$;
CREATE TRIGGER domains_catalog_change AFTER INSERT OR DELETE ON domains FOR EACH ROW EXECUTE FUNCTION catalog_change();
